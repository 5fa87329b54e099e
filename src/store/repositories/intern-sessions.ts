import type { Insertable, Kysely, Selectable } from 'kysely';
import { roundUsd } from '../../util/round-usd.js';
import type { Database, InternRunStepsTable, InternRunsTable, InternSessionsTable } from '../schema.js';

export type InternSessionRow = Selectable<InternSessionsTable>;

export async function insertInternSession(db: Kysely<Database>, session: Insertable<InternSessionsTable>): Promise<void> {
  await db.insertInto('intern_sessions').values(session).execute();
}

export function findInternSession(db: Kysely<Database>, id: string): Promise<InternSessionRow | undefined> {
  return db.selectFrom('intern_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A session's runs, oldest first, each with its transcript in order. */
export async function sessionRunsWithSteps(
  db: Kysely<Database>,
  sessionId: string,
): Promise<Array<Selectable<InternRunsTable> & { transcript: Selectable<InternRunStepsTable>[] }>> {
  const runs = await db
    .selectFrom('intern_runs')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('started_at')
    .orderBy('id')
    .execute();
  if (runs.length === 0) return [];
  const steps = await db
    .selectFrom('intern_run_steps')
    .selectAll()
    .where(
      'run_id',
      'in',
      runs.map((r) => r.id),
    )
    .orderBy('run_id')
    .orderBy('seq')
    .execute();
  return runs.map((run) => ({ ...run, transcript: steps.filter((s) => s.run_id === run.id) }));
}

/** The session's run that has not ended, if any. */
export function openRunOfSession(db: Kysely<Database>, sessionId: string): Promise<Selectable<InternRunsTable> | undefined> {
  return db
    .selectFrom('intern_runs')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('status', '!=', 'ended')
    .orderBy('started_at', 'desc')
    .executeTakeFirst();
}

/** Tokens and cost of a run's model calls (its ledger rows), and the run's own cost. */
export async function runUsage(
  db: Kysely<Database>,
  runId: string,
): Promise<{ prompt_tokens: number; completion_tokens: number; total_tokens: number; cost: number }> {
  const row = await db
    .selectFrom('generations')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('tokens_prompt'), eb.lit(0)).as('prompt'),
      eb.fn.coalesce(eb.fn.sum<number>('tokens_completion'), eb.lit(0)).as('completion'),
    ])
    .where('intern_run_id', '=', runId)
    .executeTakeFirst();
  const run = await db.selectFrom('intern_runs').select('cost').where('id', '=', runId).executeTakeFirst();
  const prompt = Number(row?.prompt ?? 0);
  const completion = Number(row?.completion ?? 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cost: roundUsd(Number(run?.cost ?? 0)),
  };
}
