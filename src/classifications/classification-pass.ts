import { addDays } from '../datasets/date-window.js';
import { decideTask, taskCues } from '../routing/auto-router/classify-task.js';
import type { Store } from '../store/database.js';
import {
  addTaskCounts,
  insertTaskSamples,
  pruneTaskCounts,
  type TaskCount,
  type TaskSample,
  takeTaskSamples,
} from '../store/repositories/task-classifications.js';
import type { Clock } from '../util/clock.js';
import { PeriodicTask } from '../util/periodic-task.js';
import type { HeldSample, TaskSampler } from './task-sampler.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs a classification pass now, over this instance's held samples (tests; the server runs one every minute). */
    classifyTaskSamples: () => Promise<void>;
  }
}

/** How many days of counts are kept: the longest `window` GET /classifications/task answers. */
export const CLASSIFICATION_DAYS = 90;
/** Samples classified per transaction. */
const BATCH = 500;
const PASS_EVERY_MS = 60_000;

/** A held sample as stored: its text reduced to the cues it shows, and dropped. */
export const storedSample = ({ text, ...sample }: HeldSample): TaskSample => ({ ...sample, cues: taskCues(text).join('\n') });

/** Samples classified and counted per organization, day, workspace, task and model. */
export function countSamples(samples: readonly TaskSample[]): TaskCount[] {
  const counts = new Map<string, TaskCount>();
  for (const sample of samples) {
    const task = decideTask(sample.cues === '' ? [] : sample.cues.split('\n')).task;
    const key = [sample.organization_id, sample.day, sample.workspace_id, task, sample.model].join('\u0000');
    const count = counts.get(key) ?? {
      organization_id: sample.organization_id,
      day: sample.day,
      workspace_id: sample.workspace_id,
      task,
      model: sample.model,
      requests: 0,
      tokens: 0,
    };
    count.requests += 1;
    count.tokens += Number(sample.tokens);
    counts.set(key, count);
  }
  return [...counts.values()];
}

/**
 * One pass: the samples this instance held are stored as features; then all
 * stored samples (any instance's) are classified into task_usage_daily and
 * deleted, a batch a transaction; then the days past CLASSIFICATION_DAYS are
 * forgotten.
 */
export async function classificationPass(
  store: Pick<Store, 'db'>,
  held: readonly HeldSample[],
  now: Date,
  signal?: AbortSignal,
): Promise<void> {
  await insertTaskSamples(store.db, held.map(storedSample));
  for (;;) {
    if (signal?.aborted) return;
    const taken = await store.db.transaction().execute(async (trx) => {
      const samples = await takeTaskSamples(trx, BATCH);
      await addTaskCounts(trx, countSamples(samples));
      return samples.length;
    });
    if (taken < BATCH) break;
  }
  await pruneTaskCounts(store.db, addDays(now.toISOString().slice(0, 10), -CLASSIFICATION_DAYS));
}

/** The pass, every minute off the request path while the server runs. */
export const classificationTask = (
  store: Pick<Store, 'db'>,
  sampler: TaskSampler,
  clock: Clock,
  onError: (error: unknown) => void,
): PeriodicTask =>
  new PeriodicTask((signal) => classificationPass(store, sampler.take(), clock(), signal), { everyMs: PASS_EVERY_MS, onError });
