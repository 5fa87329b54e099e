import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { INT, MONEY, TEXT } from './column-types.js';

/**
 * Provider credentials as data (bring-your-own-key, spec 2.5 and the reference's BYOK routes): a
 * workspace's own keys for a provider, or the organization's (workspace_id null), sealed under a
 * data key of their own that the master key wraps (byok/envelope.ts), so that rotating the master
 * key rewraps the data keys without touching the sealed keys. A deleted credential keeps its row
 * without its material. The ledger records whether a generation went out on one (is_byok), and an
 * organization may forbid a failing credential's fallback to the gateway's own (byok_fallback).
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('byok_credentials')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    /** Null: every workspace of the organization (the operator's provider key). */
    .addColumn('workspace_id', TEXT, (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('provider', TEXT, (c) => c.notNull())
    .addColumn('name', TEXT)
    .addColumn('label', TEXT, (c) => c.notNull())
    /** The key sealed under the data key; null once deleted. */
    .addColumn('sealed_key', TEXT)
    /** The data key sealed under the master key named by master_key_id; null once deleted. */
    .addColumn('wrapped_data_key', TEXT)
    .addColumn('master_key_id', TEXT)
    /** JSON string arrays, or null for no restriction. */
    .addColumn('allowed_api_key_hashes', TEXT)
    .addColumn('allowed_models', TEXT)
    .addColumn('allowed_user_ids', TEXT)
    .addColumn('is_fallback', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('sort_order', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('disabled', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addColumn('deleted_at', TEXT)
    .execute();
  await db.schema
    .createIndex('byok_credentials_organization')
    .on('byok_credentials')
    .columns(['organization_id', 'workspace_id'])
    .execute();
  await db.schema
    .alterTable('generations')
    .addColumn('is_byok', INT, (c) => c.notNull().defaultTo(0))
    .execute();
  // What a BYOK generation would have cost at the endpoint's prices: the key's and workspace's byok_usage counters, not its charge.
  await db.schema
    .alterTable('generations')
    .addColumn('byok_cost', MONEY, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('organization_settings')
    .addColumn('byok_fallback', INT, (c) => c.notNull().defaultTo(1))
    .execute();
}
