import type { RunChange } from '../../store/repositories/intern-runs.js';
import type { NewStep } from '../agent-loop/steps.js';
import type { ApprovalMode } from '../intern-runtime.js';

/** What recording a step of a run changes depends on: its mode, and how long its questions wait (the intern's interaction deadline). */
export interface RunTerms {
  mode: ApprovalMode;
  interactionDeadlineSeconds: number;
}

/**
 * What recording a step changes on its run: a manual pause waits for input
 * until its interaction deadline, an answer resumes, an end ends and frees the lease.
 */
export function runChangeFor(step: NewStep, { mode, interactionDeadlineSeconds }: RunTerms, now: Date): RunChange {
  switch (step.kind) {
    case 'question':
    case 'approval':
      return mode === 'manual'
        ? {
            status: 'awaiting_input',
            pending: JSON.stringify({ kind: step.kind, ...step.content }),
            interaction_deadline_at: new Date(now.getTime() + interactionDeadlineSeconds * 1000).toISOString(),
          }
        : {};
    case 'answer':
      return { status: 'running', pending: null, interaction_deadline_at: null };
    case 'end':
      return {
        status: 'ended',
        end_reason: step.content.reason,
        error: step.content.error ?? null,
        ended_at: now.toISOString(),
        pending: null,
        interaction_deadline_at: null,
        claimed_by: null,
        claimed_until: null,
      };
    default:
      return {};
  }
}
