import type { RunChange } from '../../store/repositories/intern-runs.js';
import type { NewStep } from '../agent-loop/steps.js';
import type { ApprovalMode } from '../intern-runtime.js';

/** What recording a step changes on its run: a manual pause waits for input, an answer resumes, an end ends and frees the lease. */
export function runChangeFor(step: NewStep, mode: ApprovalMode, now: Date): RunChange {
  switch (step.kind) {
    case 'question':
    case 'approval':
      return mode === 'manual' ? { status: 'awaiting_input', pending: JSON.stringify({ kind: step.kind, ...step.content }) } : {};
    case 'answer':
      return { status: 'running', pending: null };
    case 'end':
      return {
        status: 'ended',
        end_reason: step.content.reason,
        error: step.content.error ?? null,
        ended_at: now.toISOString(),
        pending: null,
        claimed_by: null,
        claimed_until: null,
      };
    default:
      return {};
  }
}
