import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { type Reach, reachClause } from '../reach.js';
import type { Database, ObservabilityDestinationsTable } from '../schema.js';

export type DestinationRow = Selectable<ObservabilityDestinationsTable>;
export type NewDestinationRow = Insertable<ObservabilityDestinationsTable>;
export type DestinationChanges = Updateable<ObservabilityDestinationsTable>;

const live = (db: Kysely<Database>, reach: Reach) =>
  db
    .selectFrom('observability_destinations')
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('deleted_at', 'is', null);

/**
 * Inserts a destination unless its workspace already has `maxPerType` live
 * ones of its type: false then. The count and the insert share a
 * transaction; two concurrent creations may both pass on PostgreSQL's read
 * committed, by one, which the limit tolerates.
 */
export async function createDestination(db: Kysely<Database>, row: NewDestinationRow, maxPerType: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { count } = await live(trx, { organizationId: row.organization_id, workspaceId: row.workspace_id })
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('type', '=', row.type)
      .executeTakeFirstOrThrow();
    if (Number(count) >= maxPerType) return false;
    await trx.insertInto('observability_destinations').values(row).execute();
    return true;
  });
}

export const findDestination = (db: Kysely<Database>, reach: Reach, id: string): Promise<DestinationRow | undefined> =>
  live(db, reach).selectAll().where('id', '=', id).executeTakeFirst();

/** Oldest first; `workspaceId` narrows to one workspace. */
export function listDestinations(db: Kysely<Database>, reach: Reach, workspaceId: string | undefined): Promise<DestinationRow[]> {
  let query = live(db, reach).selectAll();
  if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
  return query.orderBy('created_at').orderBy('id').execute();
}

export async function updateDestination(db: Kysely<Database>, id: string, changes: DestinationChanges): Promise<void> {
  await db.updateTable('observability_destinations').set(changes).where('id', '=', id).execute();
}

/** Soft delete: the row stays (deleted_at), its undelivered events go. */
export async function softDeleteDestination(db: Kysely<Database>, reach: Reach, id: string, now: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('observability_destinations')
      .set({ deleted_at: now, enabled: 0, updated_at: now })
      .where('id', '=', id)
      .where('organization_id', '=', reach.organizationId)
      .where(reachClause(reach))
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!result.numUpdatedRows) return false;
    await trx.deleteFrom('destination_events').where('destination_id', '=', id).execute();
    return true;
  });
}

/** What the ledger needs of each enabled destination to queue events for it (destinations/destination-cache.ts). */
export type DestinationRouting = Pick<DestinationRow, 'id' | 'workspace_id' | 'api_key_hashes' | 'sampling_rate'>;

/**
 * The enabled destinations of the workspaces that broadcast: the workspace's
 * `is_observability_broadcast_enabled` is the reference's "Enable Broadcast"
 * switch over all its destinations, off by default.
 */
export const enabledDestinations = (db: Kysely<Database>): Promise<DestinationRouting[]> =>
  db
    .selectFrom('observability_destinations as d')
    .innerJoin('workspaces as w', 'w.id', 'd.workspace_id')
    .select(['d.id', 'd.workspace_id', 'd.api_key_hashes', 'd.sampling_rate'])
    .where('d.enabled', '=', 1)
    .where('d.deleted_at', 'is', null)
    .where('w.is_observability_broadcast_enabled', '=', 1)
    .execute();
