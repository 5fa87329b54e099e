import type { UpstreamVideoState } from '../protocol/adapters.js';
import type { VideoJobStatus } from '../store/schema.js';

/** The part of a job the transitions read. */
export interface JobState {
  status: VideoJobStatus;
  upstream_id: string | null;
  failures: number;
  created_at: string;
  /** Endpoints still to try, in plan order, should the upstream fail to take the job. */
  fallbacks: readonly unknown[];
}

/** What a poll changes; `charge` says the job just completed and its cost is due. */
export interface JobChange {
  status: VideoJobStatus;
  upstream_id: string | null;
  error: string | null;
  failures: number;
  next_poll_at: string;
  seconds?: number | null;
  outputs?: number;
  charge: boolean;
  /** The upstream could not take the job: submit it to the next planned endpoint instead. */
  fallback?: true;
}

export interface PollPolicy {
  /** Between polls of a running job. */
  intervalMs: number;
  /** Longest wait after repeated upstream failures. */
  maxBackoffMs: number;
  /** Failed polls in a row before the job is given up as failed. */
  maxFailures: number;
  /** A job still running this long after submission is expired. */
  maxAgeMs: number;
}

export const TERMINAL: readonly VideoJobStatus[] = ['completed', 'failed', 'cancelled', 'expired'];
export const isTerminal = (status: VideoJobStatus): boolean => TERMINAL.includes(status);

/** The outcome of one poll: what the upstream said, or why it could not be asked. */
export type PollOutcome = { ok: true; state: UpstreamVideoState } | { ok: false; message: string; retryable: boolean };

const at = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/**
 * The next state of a job after one poll. Pure: the poller does the I/O and
 * stores what this returns. Upstream "queued" is the reference's "pending".
 */
export function advanceJob(job: JobState, outcome: PollOutcome, now: Date, policy: PollPolicy): JobChange {
  const next = at(now, policy.intervalMs);
  if (!outcome.ok) {
    // As chat moves on after a failure before the first byte: a job no upstream took yet goes to the next endpoint at once.
    if (outcome.retryable && job.upstream_id === null && job.fallbacks.length > 0) {
      return {
        status: job.status,
        upstream_id: null,
        error: null,
        failures: 0,
        next_poll_at: now.toISOString(),
        charge: false,
        fallback: true,
      };
    }
    const failures = job.failures + 1;
    if (!outcome.retryable || failures >= policy.maxFailures) {
      return { status: 'failed', upstream_id: job.upstream_id, error: outcome.message, failures, next_poll_at: next, charge: false };
    }
    // Exponential backoff: a struggling upstream is not hammered by every job at once.
    const wait = Math.min(policy.intervalMs * 2 ** failures, policy.maxBackoffMs);
    return { status: job.status, upstream_id: job.upstream_id, error: null, failures, next_poll_at: at(now, wait), charge: false };
  }
  const { state } = outcome;
  const base = { upstream_id: state.upstreamId, error: null, failures: 0, next_poll_at: next, charge: false };
  switch (state.status) {
    case 'completed':
      return { ...base, status: 'completed', seconds: state.seconds, outputs: state.outputs, charge: true };
    case 'failed':
    case 'cancelled':
      return { ...base, status: state.status, error: state.message };
    default: {
      if (now.getTime() - Date.parse(job.created_at) >= policy.maxAgeMs) {
        return { ...base, status: 'expired', error: 'Video generation did not finish in time' };
      }
      return { ...base, status: state.status === 'queued' ? 'pending' : 'in_progress' };
    }
  }
}
