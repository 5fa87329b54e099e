/**
 * The service the routes of src/api/interns call to run interns. Types only; the implementation is
 * src/interns/runtime/*. Single source of the contract between the HTTP surface and the runtime.
 */

export type ApprovalMode = 'self-drive' | 'manual';

export interface InternSubmitRequest {
  internId: string;
  sessionId: string;
  /** The prompt (already validated by the route: 1..32000 characters). */
  input: string;
  /** invoke is always 'self-drive' (spec §3); the intern chat may use 'manual'. */
  approvalMode: ApprovalMode;
  /** The invoking key: the run's model calls are billed to it and its organization. */
  apiKeyHash: string;
  organizationId: string;
  workspaceId: string;
  signal?: AbortSignal;
}

export interface InternSubmitResult {
  /** 'started': a new run in the session; 'steered': the input was delivered into the session's open run. */
  status: 'started' | 'steered';
  runId: string;
}

export interface InternRuntime {
  /**
   * Status -> provisioning (with progress) -> running once its process answers; failed with
   * last_failure_message otherwise. Resolves when the transition to provisioning is recorded
   * (does not await the process).
   */
  provision(internId: string): Promise<void>;
  /** Stops its process and open runs (end_reason 'stopped'); status -> stopped. */
  suspend(internId: string): Promise<void>;
  /** destroying -> row deleted (or destroy_failed). */
  destroy(internId: string): Promise<void>;
  /**
   * Starts a run in the session, or delivers the input into the session's open run (steered).
   * Throws catalogue GatewayErrors: internNotReady 409, internUnreachable 502, internBusy 503,
   * internTimeout 504 (runtime did not acknowledge in time).
   */
  submit(req: InternSubmitRequest): Promise<InternSubmitResult>;
  /** Live events of a run for intern chat SSE (steps recorded so far and as they are recorded, then the end). */
  events(runId: string, signal: AbortSignal): AsyncIterable<InternRunEvent>;
  /**
   * Ends the run (end_reason 'cancelled', `why` as its error) whichever instance drives it: that
   * instance's next step finds the run gone and its process stops it. Nothing when it has ended.
   */
  cancel(runId: string, why: string): Promise<void>;
  /** Manual mode: the answer to the run's pending question/approval. Approvals: 'approve'/'yes' grant, anything else denies. */
  answer(runId: string, answer: string): Promise<void>;
  /** Supervisor + lease poller; starts the processes of interns whose status is running. */
  start(): Promise<void>;
  /** Stops processes, releases leases (runs resume elsewhere or after restart). */
  close(): Promise<void>;
}

export type InternRunEvent =
  | { type: 'step'; seq: number; kind: string; content: unknown }
  | { type: 'pending'; kind: 'question' | 'approval'; content: unknown }
  | { type: 'end'; reason: string; error?: string };
