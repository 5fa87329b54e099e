import type { Selectable } from 'kysely';
import type { InternSessionRow } from '../../store/repositories/intern-sessions.js';
import type { InternRunStepsTable, InternRunsTable } from '../../store/schema.js';
import { roundUsd } from '../../util/round-usd.js';

type RunWithSteps = Selectable<InternRunsTable> & { transcript: Selectable<InternRunStepsTable>[] };

function parseContent(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** GET /interns/{internId}/sessions/{session_id}: the session and each run with its transcript. */
export function toSessionRecord(session: InternSessionRow, runs: readonly RunWithSteps[]) {
  return {
    session_id: session.id,
    intern_id: session.intern_id,
    origin: session.origin,
    created_at: session.created_at,
    runs: runs.map((run) => ({
      id: run.id,
      status: run.status,
      approval_mode: run.approval_mode,
      started_at: run.started_at,
      ended_at: run.ended_at,
      end_reason: run.end_reason,
      error: run.error,
      deadline_at: run.deadline_at,
      // A sum of charges: rounded as each charge is, so float noise does not show.
      cost: roundUsd(run.cost),
      steps: run.steps,
      pending: run.pending === null ? null : parseContent(run.pending),
      transcript: run.transcript.map((step) => ({
        seq: step.seq,
        kind: step.kind,
        content: parseContent(step.content),
        generation_id: step.generation_id,
        created_at: step.created_at,
      })),
    })),
  };
}
