import type { Kysely } from 'kysely';
import { findRun, listSteps } from '../../store/repositories/intern-runs.js';
import type { Database } from '../../store/schema.js';
import type { RecordedStep } from '../agent-loop/steps.js';
import type { InternRunEvent } from '../intern-runtime.js';

/** Between looks at the database when no local notice comes (the run may be driven by another instance). */
const POLL_MS = 1_000;

/**
 * A run's events from its transcript: every recorded step (those already
 * there first), its pending question/approval while it waits, then its end.
 * Local recordings wake it at once; otherwise it looks every second.
 */
export async function* runEvents({
  db,
  runId,
  signal,
  subscribe,
}: {
  db: Kysely<Database>;
  runId: string;
  signal: AbortSignal;
  subscribe: (wake: () => void) => () => void;
}): AsyncGenerator<InternRunEvent> {
  let after = 0;
  let pendingShown: string | null = null;
  while (!signal.aborted) {
    let woken = false;
    let wake: () => void = () => {
      woken = true;
    };
    const unsubscribe = subscribe(() => wake());
    try {
      for (const stored of await listSteps(db, runId, after)) {
        const step = stored as RecordedStep;
        after = step.seq;
        yield { type: 'step', seq: step.seq, kind: step.kind, content: step.content };
        if (step.kind === 'end') {
          yield { type: 'end', reason: step.content.reason, ...(step.content.error ? { error: step.content.error } : {}) };
          return;
        }
      }
      const run = await findRun(db, runId);
      if (!run) return;
      if (run.status === 'awaiting_input' && run.pending && run.pending !== pendingShown) {
        pendingShown = run.pending;
        const pending = JSON.parse(run.pending) as { kind: 'question' | 'approval' };
        yield { type: 'pending', kind: pending.kind, content: pending };
      }
      if (!woken)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, POLL_MS);
          signal.addEventListener('abort', done, { once: true });
          wake = done;
          function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
          }
        });
    } finally {
      unsubscribe();
    }
  }
}
