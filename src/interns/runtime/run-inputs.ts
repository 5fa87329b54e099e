import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../../store/change-feed.js';
import {
  findRunInput,
  type InternRunInputRow,
  postRunInput,
  removeRunInput,
  settleRunInput,
  waitingRunInputs,
} from '../../store/repositories/intern-run-inputs.js';
import type { Database } from '../../store/schema.js';
import type { Clock } from '../../util/clock.js';
import { AckTimeoutError } from './intern-process.js';

/** Change-feed topic naming a run that has an input waiting for its driver. */
export const INTERN_RUN_INPUT_TOPIC = 'intern-run-input';

/** Between the sender's looks at whether its input was taken. */
const POLL_MS = 25;

export interface RunInputOptions {
  db: Kysely<Database>;
  clock: Clock;
  changes?: ChangeFeed | undefined;
  /** How long the driver has to take an input (the runtime's ack timeout: 504 after). */
  timeoutMs: number;
  /**
   * The driver's side: hands the input to the run's process here. False when
   * the run is not (yet) driven here, so the input waits; a rejection is the
   * driver's refusal, reported to the sender.
   */
  deliver(input: InternRunInputRow): Promise<boolean>;
  log(message: string, detail?: unknown): void;
}

/**
 * Inputs for runs driven by another gateway instance: the instance that got
 * a steer or an answer writes it to the database and waits; the driver is
 * told at once through the change feed (and drains on its tick besides, for
 * a lost notice), hands the input to the run's process and marks it taken.
 * An input not taken in time is withdrawn and the sender answers 504.
 */
export function runInputs(options: RunInputOptions) {
  const { db, clock } = options;
  let draining: Promise<void> = Promise.resolve();

  async function deliverWaiting(runIds: readonly string[]): Promise<void> {
    for (const input of await waitingRunInputs(db, runIds)) {
      let error: string | undefined;
      try {
        if (!(await options.deliver(input))) continue;
      } catch (failure) {
        error = failure instanceof Error ? failure.message : String(failure);
      }
      // False: its sender gave up meanwhile (it answered 504; the input may still have reached the run).
      if (!(await settleRunInput(db, input.id, clock(), error)))
        options.log(`input ${input.id} for run ${input.run_id} was taken after its sender gave up`);
    }
  }

  return {
    /** Sender: resolves once the driver took the input; rejects with its refusal, or AckTimeoutError when it did not take it in time. */
    async handOver(runId: string, kind: InternRunInputRow['kind'], text: string): Promise<void> {
      const id = `iinp_${randomBytes(12).toString('hex')}`;
      await postRunInput(db, { id, run_id: runId, kind, text, created_at: clock().toISOString() });
      try {
        // A lost notice only delays the input until the driver's next tick.
        await options.changes
          ?.publish(INTERN_RUN_INPUT_TOPIC, runId)
          .catch((error: unknown) => options.log('intern run input notice failed', error));
        const deadline = Date.now() + options.timeoutMs;
        for (;;) {
          const row = await findRunInput(db, id);
          if (!row) throw new Error('the input was lost before its run took it');
          if (row.taken_at) {
            if (row.error) throw new Error(row.error);
            return;
          }
          if (Date.now() >= deadline && (await removeRunInput(db, id, true))) {
            throw new AckTimeoutError(`the gateway instance driving the run did not take the ${kind} within ${options.timeoutMs} ms`);
          }
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      } finally {
        await removeRunInput(db, id);
      }
    },

    /** Driver: delivers the inputs waiting for these runs, one drain at a time (so none is delivered twice). */
    drain(runIds: readonly string[]): Promise<void> {
      if (runIds.length === 0) return draining;
      draining = draining
        .then(() => deliverWaiting(runIds))
        .catch((error: unknown) => options.log('intern run inputs could not be delivered', error));
      return draining;
    },
  };
}
