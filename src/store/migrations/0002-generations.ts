import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { INT, MONEY, TEXT } from './column-types.js';

/**
 * The ledger: one row per generation, success or not. It has no foreign key to
 * api_keys on purpose: deleting a key must never delete what it was charged.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('generations')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('api_key_hash', TEXT, (c) => c.notNull())
    .addColumn('request_id', TEXT)
    .addColumn('upstream_id', TEXT)
    .addColumn('model', TEXT, (c) => c.notNull())
    .addColumn('provider_name', TEXT)
    .addColumn('upstream_model', TEXT)
    .addColumn('app_id', INT)
    .addColumn('external_user', TEXT)
    .addColumn('user_hash', TEXT)
    .addColumn('session_id', TEXT)
    .addColumn('api_type', TEXT, (c) => c.notNull())
    .addColumn('status', TEXT, (c) => c.notNull())
    .addColumn('streamed', INT, (c) => c.notNull())
    .addColumn('cancelled', INT, (c) => c.notNull())
    .addColumn('finish_reason', TEXT)
    .addColumn('native_finish_reason', TEXT)
    .addColumn('service_tier', TEXT)
    .addColumn('tokens_prompt', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_completion', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_cached', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_cache_write', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_reasoning', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('total_cost', MONEY, (c) => c.notNull().defaultTo(0))
    .addColumn('cache_discount', MONEY)
    .addColumn('latency_ms', INT)
    .addColumn('ttft_ms', INT)
    .addColumn('generation_time_ms', INT)
    .addColumn('error_code', INT)
    .addColumn('error_message', TEXT)
    .addColumn('routing', TEXT)
    .addColumn('origin', TEXT)
    .addColumn('user_agent', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('generations_org_created').on('generations').columns(['organization_id', 'created_at']).execute();
  await db.schema.createIndex('generations_key_created').on('generations').columns(['api_key_hash', 'created_at']).execute();
}
