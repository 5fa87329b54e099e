import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';
import type { DestinationRow } from './observability-destinations.js';

/**
 * Enabled destinations with events to send, due (no backoff pending) and not
 * leased by another sender.
 */
export function dueDestinations(db: Kysely<Database>, now: string, limit: number): Promise<DestinationRow[]> {
  return db
    .selectFrom('observability_destinations as d')
    .selectAll()
    .where('d.enabled', '=', 1)
    .where('d.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('d.retry_at', 'is', null), eb('d.retry_at', '<=', now)]))
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('destination_events as e')
          .select(sql`1`.as('one'))
          .whereRef('e.destination_id', '=', 'd.id')
          .where('e.dead_at', 'is', null),
      ),
    )
    .limit(limit)
    .execute();
}

/**
 * Claims a destination's sending until `until`: one conditional UPDATE, so of
 * several instances racing for it one wins (PostgreSQL locks the row and
 * re-checks the condition for the others). Its holder alone sends its events,
 * which keeps them in order and sends each once.
 */
export async function claimDestination(db: Kysely<Database>, id: string, owner: string, now: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('observability_destinations')
    .set({ lease_owner: owner, lease_until: until })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseDestination(db: Kysely<Database>, id: string, owner: string): Promise<void> {
  await db
    .updateTable('observability_destinations')
    .set({ lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute();
}

/** An event to send: its outbox row, its ledger row, the key's name and the stored content (when stored and the workspace's I/O logging is on). */
export interface PendingEvent {
  event_id: number;
  created_at: string;
  attempts: number;
  generation: Record<string, unknown> & { id: string; created_at: string };
  api_key_name: string | null;
  input: string | null;
  completion: string | null;
}

/** A destination's oldest pending events, in order. */
export async function pendingEvents(db: Kysely<Database>, destinationId: string, limit: number): Promise<PendingEvent[]> {
  const events = await db
    .selectFrom('destination_events')
    .select(['id', 'generation_id', 'created_at', 'attempts'])
    .where('destination_id', '=', destinationId)
    .where('dead_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
  if (events.length === 0) return [];
  const ids = events.map((e) => e.generation_id);
  const [generations, contents] = await Promise.all([
    db
      .selectFrom('generations as g')
      .leftJoin('api_keys as k', 'k.hash', 'g.api_key_hash')
      .leftJoin('workspaces as w', 'w.id', 'g.workspace_id')
      .selectAll('g')
      .select(['k.name as api_key_name', 'w.is_observability_io_logging_enabled as io_logging'])
      .where('g.id', 'in', ids)
      .execute(),
    db.selectFrom('generation_contents').select(['generation_id', 'input', 'completion']).where('generation_id', 'in', ids).execute(),
  ]);
  const byId = new Map(generations.map((g) => [g.id, g]));
  const contentById = new Map(contents.map((c) => [c.generation_id, c]));
  const out: PendingEvent[] = [];
  for (const event of events) {
    const found = byId.get(event.generation_id);
    if (!found) continue;
    const { api_key_name, io_logging, ...generation } = found;
    // Content goes out only with the workspace's I/O logging on (and stored: the organization keeps contents).
    const content = io_logging === 1 ? contentById.get(event.generation_id) : undefined;
    out.push({
      event_id: Number(event.id),
      created_at: event.created_at,
      attempts: event.attempts,
      generation,
      api_key_name,
      input: content?.input ?? null,
      completion: content?.completion ?? null,
    });
  }
  return out;
}

export async function deleteEvents(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('destination_events').where('id', 'in', ids).execute();
}

/** After a success: the backoff ends. */
export async function noteSuccess(db: Kysely<Database>, id: string, now: string): Promise<void> {
  await db
    .updateTable('observability_destinations')
    .set({ failures: 0, retry_at: null, last_success_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * After a failure, in one transaction: the undelivered events' attempts count
 * up, the `dead` among them become dead letters, and the destination waits
 * until `retryAt`.
 */
export async function noteFailure(
  db: Kysely<Database>,
  destination: Pick<DestinationRow, 'id' | 'failures'>,
  eventIds: readonly number[],
  dead: readonly number[],
  error: string,
  at: { now: string; retryAt: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('observability_destinations')
      .set({ failures: destination.failures + 1, retry_at: at.retryAt, last_error: error })
      .where('id', '=', destination.id)
      .execute();
    if (eventIds.length > 0)
      await trx
        .updateTable('destination_events')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error }))
        .where('id', 'in', eventIds)
        .execute();
    await deadLetter(trx, dead, error, at.now);
  });
}

/** Moves events to the dead-letter list. */
export async function deadLetter(db: Kysely<Database>, ids: readonly number[], error: string, now: string): Promise<void> {
  if (ids.length > 0) await db.updateTable('destination_events').set({ dead_at: now, last_error: error }).where('id', 'in', ids).execute();
}

/** Puts a destination's dead letters back in its queue (in their order): how many. */
export async function retryDeadLetters(db: Kysely<Database>, destinationId: string, now: string): Promise<number> {
  const result = await db
    .updateTable('destination_events')
    .set({ dead_at: null, attempts: 0, created_at: now })
    .where('destination_id', '=', destinationId)
    .where('dead_at', 'is not', null)
    .executeTakeFirst();
  await db.updateTable('observability_destinations').set({ retry_at: null, failures: 0 }).where('id', '=', destinationId).execute();
  return Number(result.numUpdatedRows);
}

/** Events waiting and dead letters, by destination. */
export async function eventCounts(
  db: Kysely<Database>,
  destinationIds: readonly string[],
): Promise<Map<string, { pending: number; dead: number }>> {
  const out = new Map(destinationIds.map((id) => [id, { pending: 0, dead: 0 }]));
  if (destinationIds.length === 0) return out;
  const rows = await db
    .selectFrom('destination_events')
    .select(['destination_id', sql<number>`case when dead_at is null then 0 else 1 end`.as('dead')])
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('destination_id', 'in', destinationIds)
    .groupBy(['destination_id', sql`case when dead_at is null then 0 else 1 end`])
    .execute();
  for (const row of rows) {
    const counts = out.get(row.destination_id);
    if (counts) counts[Number(row.dead) === 1 ? 'dead' : 'pending'] = Number(row.count);
  }
  return out;
}
