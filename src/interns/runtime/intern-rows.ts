import type { Kysely } from 'kysely';
import type { Database, InternStatus } from '../../store/schema.js';

/**
 * The runtime's reads and writes of interns rows, by id alone (the runtime
 * is called for an intern the API already found in its organization).
 */
export function internById(db: Kysely<Database>, id: string) {
  return db.selectFrom('interns').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface InternStateChange {
  status: InternStatus;
  progress?: { step_label: string; step_number: number; total_steps: number } | null;
  lastFailureMessage?: string | null;
}

/** Moves the intern's status (only from `from` when given, so a suspend during provisioning is not overwritten); true when it moved. */
export async function setInternState(
  db: Kysely<Database>,
  id: string,
  change: InternStateChange,
  now: Date,
  from?: readonly InternStatus[],
): Promise<boolean> {
  let query = db
    .updateTable('interns')
    .set({
      status: change.status,
      ...(change.progress !== undefined ? { progress: change.progress === null ? null : JSON.stringify(change.progress) } : {}),
      ...(change.lastFailureMessage !== undefined ? { last_failure_message: change.lastFailureMessage } : {}),
      updated_at: now.toISOString(),
    })
    .where('id', '=', id);
  if (from) query = query.where('status', 'in', from);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes the intern and its vault secrets (secrets never outlive their intern); its runs and transcripts stay for the record. */
export async function deleteInternRows(db: Kysely<Database>, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('intern_vault_secrets').where('intern_id', '=', id).execute();
    await trx.deleteFrom('interns').where('id', '=', id).execute();
  });
}
