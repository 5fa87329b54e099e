import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { INT, MONEY, TEXT } from './column-types.js';

/**
 * Observability destinations (the reference's /observability/destinations): where a workspace's
 * generations are broadcast, their config sealed under the vault key (secrets are write-only), and
 * their delivery state: a lease that lets one instance at a time send a destination's events (in
 * order, once), the backoff after a failure and the last success. `destination_events` is the
 * durable outbox, one row per generation and destination, written in the ledger's transaction;
 * a row with `dead_at` is a dead letter.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('observability_destinations')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('type', TEXT, (c) => c.notNull())
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('config_sealed', TEXT, (c) => c.notNull())
    .addColumn('enabled', INT, (c) => c.notNull().defaultTo(1))
    .addColumn('api_key_hashes', TEXT)
    .addColumn('sampling_rate', MONEY, (c) => c.notNull().defaultTo(1))
    .addColumn('privacy_mode', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('filter_rules', TEXT)
    .addColumn('broadcast_generation_cost', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('broadcast_generation_identity', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('broadcast_generation_request_context', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addColumn('deleted_at', TEXT)
    .addColumn('lease_owner', TEXT)
    .addColumn('lease_until', TEXT)
    .addColumn('retry_at', TEXT)
    .addColumn('failures', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('last_success_at', TEXT)
    .addColumn('last_error', TEXT)
    .execute();
  await db.schema
    .createIndex('observability_destinations_workspace')
    .on('observability_destinations')
    .columns(['organization_id', 'workspace_id', 'type'])
    .execute();

  await db.schema
    .createTable('destination_events')
    .addColumn('id', engine === 'postgres' ? 'bigserial' : INT, (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('destination_id', TEXT, (c) => c.notNull().references('observability_destinations.id').onDelete('cascade'))
    .addColumn('generation_id', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('attempts', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('dead_at', TEXT)
    .addColumn('last_error', TEXT)
    .execute();
  // A destination's pending events in order, and its dead letters.
  await db.schema.createIndex('destination_events_queue').on('destination_events').columns(['destination_id', 'dead_at', 'id']).execute();
}
