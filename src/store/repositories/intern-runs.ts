import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Database, InternRunStepKind, InternRunsTable } from '../schema.js';

export type InternRunRow = Selectable<InternRunsTable>;
export type NewInternRun = Omit<Insertable<InternRunsTable>, 'steps' | 'cost' | 'status' | 'updated_at'>;
/** What a recorded step changes on its run (status, pending, the end). */
export type RunChange = Pick<
  Updateable<InternRunsTable>,
  'status' | 'pending' | 'interaction_deadline_at' | 'end_reason' | 'error' | 'ended_at' | 'claimed_by' | 'claimed_until'
>;

const OPEN = ['running', 'awaiting_input'] as const;

/** A new run, leased to `token`, with its input as step 1: one transaction, so a run never exists without what started it. */
export async function insertRun(db: Kysely<Database>, run: NewInternRun, input: string, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('intern_runs')
      .values({ ...run, status: 'running', steps: 1, cost: 0, updated_at: at })
      .execute();
    await trx
      .insertInto('intern_run_steps')
      .values({ run_id: run.id, seq: 1, kind: 'input', content: JSON.stringify({ text: input }), generation_id: null, created_at: at })
      .execute();
  });
}

export function findRun(db: Kysely<Database>, id: string): Promise<InternRunRow | undefined> {
  return db.selectFrom('intern_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The session's run still going (running or waiting for an answer), if any. */
export function findOpenRunInSession(db: Kysely<Database>, sessionId: string): Promise<InternRunRow | undefined> {
  return db
    .selectFrom('intern_runs')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('status', 'in', OPEN)
    .orderBy('started_at', 'desc')
    .executeTakeFirst();
}

export function openRunsOfIntern(db: Kysely<Database>, internId: string): Promise<InternRunRow[]> {
  return db.selectFrom('intern_runs').selectAll().where('intern_id', '=', internId).where('status', 'in', OPEN).execute();
}

/** How many of the intern's runs are paused on a question or approval. */
export async function countAwaitingRuns(db: Kysely<Database>, internId: string): Promise<number> {
  const row = await db
    .selectFrom('intern_runs')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('intern_id', '=', internId)
    .where('status', '=', 'awaiting_input')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A step of a run's transcript as stored: its content parsed, its kind's shape the caller's to know (interns/agent-loop/steps.ts). */
export interface StoredStep {
  seq: number;
  kind: InternRunStepKind;
  content: unknown;
  generation_id: string | null;
}

export async function listSteps(db: Kysely<Database>, runId: string, afterSeq = 0): Promise<StoredStep[]> {
  const rows = await db
    .selectFrom('intern_run_steps')
    .selectAll()
    .where('run_id', '=', runId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({
    seq: Number(row.seq),
    kind: row.kind,
    content: JSON.parse(row.content) as unknown,
    generation_id: row.generation_id,
  }));
}

/**
 * Appends a step while `token` holds the run's lease, with the change it
 * makes to the run, in one transaction; the sequence number comes from the
 * run's own counter, incremented in the same UPDATE that checks the lease.
 * Undefined when the lease was lost (another instance took the run over) or
 * the run has ended: the caller must stop acting on it.
 */
export async function appendStep<S extends { kind: InternRunStepKind; content: unknown }>(
  db: Kysely<Database>,
  {
    runId,
    token,
    step,
    generationId,
    change,
    now,
  }: { runId: string; token: string; step: S; generationId?: string | undefined; change: RunChange; now: Date },
): Promise<(S & { seq: number }) | undefined> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('intern_runs')
      .set({ ...change, steps: sql`steps + 1`, updated_at: at })
      .where('id', '=', runId)
      .where('claimed_by', '=', token)
      .where('status', 'in', OPEN)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return undefined;
    const run = await trx.selectFrom('intern_runs').select('steps').where('id', '=', runId).executeTakeFirstOrThrow();
    const seq = Number(run.steps);
    await trx
      .insertInto('intern_run_steps')
      .values({
        run_id: runId,
        seq,
        kind: step.kind,
        content: JSON.stringify(step.content),
        generation_id: generationId ?? null,
        created_at: at,
      })
      .execute();
    return { seq, ...step };
  });
}

export async function addRunCost(db: Kysely<Database>, runId: string, cost: number): Promise<void> {
  if (cost === 0) return;
  await db
    .updateTable('intern_runs')
    .set({ cost: sql`cost + ${cost}` })
    .where('id', '=', runId)
    .execute();
}

/**
 * Leases up to `limit` open runs of the given interns whose lease is free or
 * lapsed to `token` (as claimDueVideoJobs: one UPDATE re-checking the lease,
 * so two instances never hold the same run).
 */
export async function claimDueRuns(
  db: Kysely<Database>,
  { token, now, leaseUntil, limit, internIds }: { token: string; now: Date; leaseUntil: Date; limit: number; internIds: readonly string[] },
): Promise<InternRunRow[]> {
  if (internIds.length === 0) return [];
  const nowIso = now.toISOString();
  const due = db
    .selectFrom('intern_runs')
    .select('id')
    .where('status', 'in', OPEN)
    .where('intern_id', 'in', internIds)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', nowIso)]))
    .orderBy('started_at')
    .limit(limit);
  const ids = (await due.execute()).map((row) => row.id);
  if (ids.length === 0) return [];
  await db
    .updateTable('intern_runs')
    .set({ claimed_by: token, claimed_until: leaseUntil.toISOString() })
    .where('id', 'in', ids)
    .where('status', 'in', OPEN)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', nowIso)]))
    .execute();
  return db
    .selectFrom('intern_runs')
    .selectAll()
    .where('id', 'in', ids)
    .where('claimed_by', '=', token)
    .where('claimed_until', '=', leaseUntil.toISOString())
    .execute();
}

/** Takes one open run whatever its lease (suspend, deadline, a steer for a run no one drives): the previous holder's next append fails. */
export async function seizeRun(
  db: Kysely<Database>,
  { id, token, leaseUntil }: { id: string; token: string; leaseUntil: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('intern_runs')
    .set({ claimed_by: token, claimed_until: leaseUntil.toISOString() })
    .where('id', '=', id)
    .where('status', 'in', OPEN)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Extends the leases `token` holds on these runs; returns the ids it still holds. */
export async function renewRuns(
  db: Kysely<Database>,
  { token, ids, leaseUntil }: { token: string; ids: readonly string[]; leaseUntil: Date },
): Promise<string[]> {
  if (ids.length === 0) return [];
  await db
    .updateTable('intern_runs')
    .set({ claimed_until: leaseUntil.toISOString() })
    .where('id', 'in', ids)
    .where('claimed_by', '=', token)
    .where('status', 'in', OPEN)
    .execute();
  const held = await db
    .selectFrom('intern_runs')
    .select('id')
    .where('id', 'in', ids)
    .where('claimed_by', '=', token)
    .where('status', 'in', OPEN)
    .execute();
  return held.map((row) => row.id);
}

/** Gives back every lease `token` holds, so another instance (or this one restarted) resumes the runs at once. */
export async function releaseRuns(db: Kysely<Database>, { token, now }: { token: string; now: Date }): Promise<void> {
  await db
    .updateTable('intern_runs')
    .set({ claimed_by: null, claimed_until: now.toISOString() })
    .where('claimed_by', '=', token)
    .where('status', 'in', OPEN)
    .execute();
}

/** Open runs past their deadline (whoever holds them). */
export function overdueRuns(db: Kysely<Database>, now: Date, limit: number): Promise<InternRunRow[]> {
  return db
    .selectFrom('intern_runs')
    .selectAll()
    .where('status', 'in', OPEN)
    .where('deadline_at', '<=', now.toISOString())
    .limit(limit)
    .execute();
}

/** Runs paused on a question or approval past their interaction deadline (whoever holds them). */
export function unansweredRuns(db: Kysely<Database>, now: Date, limit: number): Promise<InternRunRow[]> {
  return db
    .selectFrom('intern_runs')
    .selectAll()
    .where('status', '=', 'awaiting_input')
    .where('interaction_deadline_at', '<=', now.toISOString())
    .limit(limit)
    .execute();
}

/** Leases one open run to `token` if its lease is free or lapsed (a steer for a run no live instance drives). */
export async function claimRun(
  db: Kysely<Database>,
  { id, token, now, leaseUntil }: { id: string; token: string; now: Date; leaseUntil: Date },
): Promise<boolean> {
  const nowIso = now.toISOString();
  const result = await db
    .updateTable('intern_runs')
    .set({ claimed_by: token, claimed_until: leaseUntil.toISOString() })
    .where('id', '=', id)
    .where('status', 'in', OPEN)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', nowIso), eb('claimed_by', '=', token)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
