import type { ChatMessage, FunctionTool } from '../../protocol/chat.js';
import type { LoopOutcome } from '../agent-loop/run-agent-loop.js';
import type { NewStep, RecordedStep, StepOf } from '../agent-loop/steps.js';
import type { ApprovalMode } from '../intern-runtime.js';
import type { InternSettings } from '../intern-settings.js';

/**
 * Messages between the gateway (parent) and an intern's process (child).
 *
 * Split of work: the child runs the agent loop and the tools — the code that
 * touches the outside world on the model's say-so (fetches, webhooks, secret
 * values in requests) and may hang, leak or crash — so a misbehaving intern
 * takes down only its own process. The parent keeps everything that must
 * survive it and that one process must not own: the database (transcript,
 * leases, status), the model calls (routed, billed to the invoking key and
 * recorded in the ledger like any chat) and the vault (secrets leave the
 * parent one tool call at a time). Each step the loop takes is a `record`
 * call the parent stores before answering, so the loop acts on a step only
 * once it is durable; a model turn is recorded by the parent itself, with
 * its bill, so a process dying mid-call never has it paid for twice.
 */

export interface RunAssignment {
  runId: string;
  internId: string;
  instructions: string | null;
  settings: InternSettings;
  mode: ApprovalMode;
  deadlineAt: string;
  maxTurns: number;
  /** The transcript so far: the loop resumes from it. */
  steps: RecordedStep[];
}

export interface ChildInit {
  internId: string;
  /** CIDR ranges the operator opened to outbound fetches (gateway.yaml network.allow_private_ranges). */
  allowPrivateRanges: string[];
}

/** Requests the parent sends; the child answers each with an `ack` of the same id. */
export type ParentRequest =
  | { type: 'init'; id: number; init: ChildInit }
  | { type: 'ping'; id: number }
  | { type: 'run'; id: number; run: RunAssignment }
  | { type: 'steer'; id: number; runId: string; text: string }
  | { type: 'answer'; id: number; runId: string; text: string }
  | { type: 'stop'; id: number; runId: string };

export type ParentMessage =
  | ParentRequest
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: string };

export interface ChildCalls {
  /** A model call, billed and recorded as the run's next (assistant) step by the parent before it answers. */
  turn: { args: { messages: ChatMessage[]; tools: readonly FunctionTool[] }; result: StepOf<'assistant'> };
  record: { args: { step: NewStep }; result: RecordedStep };
  secrets: { args: { names: readonly string[] }; result: Record<string, { value: string; hosts: string[] }> };
  now: { args: Record<string, never>; result: string };
}
export type ChildCallMethod = keyof ChildCalls;

export type ChildMessage =
  | { type: 'ack'; id: number; ok: true }
  | { type: 'ack'; id: number; ok: false; error: string }
  | { type: 'call'; id: number; runId: string; method: ChildCallMethod; args: unknown }
  | { type: 'done'; runId: string; outcome: LoopOutcome }
  | { type: 'done'; runId: string; error: string };
