import { type Kysely, sql, type Transaction } from 'kysely';
import { type Reach, reachClause } from '../reach.js';
import type { Database, TaskSamplesTable, TaskUsageDailyTable } from '../schema.js';

export type TaskSample = Omit<TaskSamplesTable, 'id'>;
export type TaskCount = TaskUsageDailyTable;

export async function insertTaskSamples(db: Kysely<Database>, samples: readonly TaskSample[]): Promise<void> {
  if (samples.length > 0)
    await db
      .insertInto('task_samples')
      .values([...samples])
      .execute();
}

/**
 * Deletes up to `limit` of the oldest samples and returns them. Two
 * instances taking at once never get the same sample: on PostgreSQL the
 * second delete waits for the first's rows and skips those it deleted.
 */
export async function takeTaskSamples(trx: Transaction<Database>, limit: number): Promise<TaskSample[]> {
  return trx
    .deleteFrom('task_samples')
    .where('id', 'in', (eb) => eb.selectFrom('task_samples').select('id').orderBy('id').limit(limit))
    .returning(['organization_id', 'workspace_id', 'day', 'model', 'tokens', 'cues'])
    .execute();
}

const COUNT_KEY = ['organization_id', 'day', 'workspace_id', 'task', 'model'] as const;

export async function addTaskCounts(trx: Transaction<Database>, counts: readonly TaskCount[]): Promise<void> {
  for (const count of counts)
    await trx
      .insertInto('task_usage_daily')
      .values(count)
      .onConflict((conflict) =>
        conflict.columns([...COUNT_KEY]).doUpdateSet({
          requests: sql`task_usage_daily.requests + excluded.requests`,
          tokens: sql`task_usage_daily.tokens + excluded.tokens`,
        }),
      )
      .execute();
}

/** Forgets the counts of the days before `day`. */
export async function pruneTaskCounts(db: Kysely<Database>, day: string): Promise<void> {
  await db.deleteFrom('task_usage_daily').where('day', '<', day).execute();
}

/** A task's and model's sampled requests and tokens over some days. */
export interface TaskModelSums {
  task: string;
  model: string;
  requests: number;
  tokens: number;
}

/** The counts of [start, end] (UTC days, inclusive) in the reach, by task and model. */
export async function taskModelSums(db: Kysely<Database>, reach: Reach, start: string, end: string): Promise<TaskModelSums[]> {
  const rows = await db
    .selectFrom('task_usage_daily')
    .select(['task', 'model'])
    .select((eb) => [eb.fn.sum<number | string>('requests').as('requests'), eb.fn.sum<number | string>('tokens').as('tokens')])
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('day', '>=', start)
    .where('day', '<=', end)
    .groupBy(['task', 'model'])
    .execute();
  return rows.map((row) => ({ ...row, requests: Number(row.requests), tokens: Number(row.tokens) }));
}
