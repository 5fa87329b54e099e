import type { Kysely, Selectable } from 'kysely';
import type { Database, InternRunInputsTable } from '../schema.js';

export type InternRunInputRow = Selectable<InternRunInputsTable>;

export async function postRunInput(db: Kysely<Database>, input: Omit<InternRunInputRow, 'taken_at' | 'error'>): Promise<void> {
  await db
    .insertInto('intern_run_inputs')
    .values({ ...input, taken_at: null, error: null })
    .execute();
}

export function findRunInput(db: Kysely<Database>, id: string): Promise<InternRunInputRow | undefined> {
  return db.selectFrom('intern_run_inputs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inputs still waiting for these runs' driver, oldest first (steers keep their order). */
export function waitingRunInputs(db: Kysely<Database>, runIds: readonly string[]): Promise<InternRunInputRow[]> {
  if (runIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('intern_run_inputs')
    .selectAll()
    .where('run_id', 'in', runIds)
    .where('taken_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The driver's word on a waiting input: taken, or refused with `error`. False when its sender already gave up on it. */
export async function settleRunInput(db: Kysely<Database>, id: string, now: Date, error?: string): Promise<boolean> {
  const result = await db
    .updateTable('intern_run_inputs')
    .set({ taken_at: now.toISOString(), error: error ?? null })
    .where('id', '=', id)
    .where('taken_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes the input: `onlyWaiting` withdraws it only if no driver took it yet (true when withdrawn). */
export async function removeRunInput(db: Kysely<Database>, id: string, onlyWaiting = false): Promise<boolean> {
  let query = db.deleteFrom('intern_run_inputs').where('id', '=', id);
  if (onlyWaiting) query = query.where('taken_at', 'is', null);
  const result = await query.executeTakeFirst();
  return result.numDeletedRows > 0n;
}
