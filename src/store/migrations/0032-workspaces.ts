import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Engine } from '../database.js';
import { INT, MONEY, TEXT } from './column-types.js';

/**
 * Workspaces become the boundary of an organization's resources (spec 2.5; the reference's Workspace):
 * their settings and defaults, their members with a role each, their budgets per interval, and a
 * management key's reach (one workspace, or the whole organization).
 * A deleted workspace keeps its row (`deleted_at`) so that the ledger's `workspace_id`s still name it.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  // Nullable text columns, then those with a default (one ALTER each: SQLite adds one column at a time).
  for (const name of [
    'description',
    'default_text_model',
    'default_image_model',
    'default_provider_sort',
    'default_guardrail_id',
    /** JSON array of key hashes, or null for every key. */
    'io_logging_api_key_ids',
    'created_by',
    'updated_at',
    'deleted_at',
  ]) {
    await db.schema.alterTable('workspaces').addColumn(name, TEXT).execute();
  }
  const withDefaults: [string, typeof INT | typeof MONEY, number][] = [
    ['include_byok_in_budgets', INT, 0],
    ['io_logging_sampling_rate', MONEY, 1],
    ['is_data_discount_logging_enabled', INT, 1],
    ['is_observability_broadcast_enabled', INT, 0],
    ['is_observability_io_logging_enabled', INT, 0],
  ];
  for (const [name, type, value] of withDefaults) {
    await db.schema
      .alterTable('workspaces')
      .addColumn(name, type, (c) => c.notNull().defaultTo(value))
      .execute();
  }

  await db.schema
    .createTable('workspace_members')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('workspace_id', TEXT, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', TEXT, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', TEXT, (c) => c.notNull().check(sql`role in ('admin', 'member')`))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addUniqueConstraint('workspace_members_pair', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('workspace_members_user').on('workspace_members').column('user_id').execute();

  await db.schema
    .createTable('workspace_budgets')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('workspace_id', TEXT, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('reset_interval', TEXT, (c) => c.notNull().check(sql`reset_interval in ('daily', 'weekly', 'monthly', 'lifetime')`))
    .addColumn('limit_usd', MONEY, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addUniqueConstraint('workspace_budgets_interval', ['workspace_id', 'reset_interval'])
    .execute();

  // A management key reaches its own workspace only ('workspace') or the whole organization (null: as before).
  await db.schema
    .alterTable('api_keys')
    .addColumn('management_scope', TEXT, (c) => c.check(sql`management_scope in ('workspace')`))
    .execute();
}
