import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Engine } from '../database.js';
import { INT, MONEY, TEXT } from './column-types.js';

export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('slug', TEXT, (c) => c.notNull().unique())
    .addColumn('is_default', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('email', TEXT, (c) => c.notNull().unique())
    .addColumn('first_name', TEXT)
    .addColumn('last_name', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', TEXT, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', TEXT, (c) => c.notNull().check(sql`role in ('owner', 'admin', 'member')`))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['organization_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('slug', TEXT, (c) => c.notNull())
    .addColumn('is_default', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addUniqueConstraint('workspaces_org_slug', ['organization_id', 'slug'])
    .execute();

  await db.schema
    .createTable('apps')
    .addColumn('id', engine === 'postgres' ? 'serial' : INT, (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('origin', TEXT, (c) => c.notNull())
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addUniqueConstraint('apps_org_origin', ['organization_id', 'origin'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('hash', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('workspace_id', TEXT, (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('label', TEXT, (c) => c.notNull())
    .addColumn('is_management', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('disabled', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('limit_usd', MONEY)
    .addColumn('limit_reset', TEXT, (c) => c.check(sql`limit_reset in ('daily', 'weekly', 'monthly')`))
    .addColumn('include_byok_in_limit', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('creator_user_id', TEXT, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('app_id', INT, (c) => c.references('apps.id').onDelete('set null'))
    .addColumn('external_user', TEXT)
    .addColumn('expires_at', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT)
    .addColumn('usage', MONEY, (c) => c.notNull().defaultTo(0))
    .addColumn('usage_daily', MONEY, (c) => c.notNull().defaultTo(0))
    .addColumn('usage_daily_period', TEXT, (c) => c.notNull().defaultTo(''))
    .addColumn('usage_weekly', MONEY, (c) => c.notNull().defaultTo(0))
    .addColumn('usage_weekly_period', TEXT, (c) => c.notNull().defaultTo(''))
    .addColumn('usage_monthly', MONEY, (c) => c.notNull().defaultTo(0))
    .addColumn('usage_monthly_period', TEXT, (c) => c.notNull().defaultTo(''))
    .addColumn('byok_usage', MONEY, (c) => c.notNull().defaultTo(0))
    .addColumn('byok_usage_daily', MONEY, (c) => c.notNull().defaultTo(0))
    .addColumn('byok_usage_weekly', MONEY, (c) => c.notNull().defaultTo(0))
    .addColumn('byok_usage_monthly', MONEY, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('api_keys_org_workspace').on('api_keys').columns(['organization_id', 'workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('authorization_codes')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', TEXT, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('app_id', INT, (c) => c.notNull().references('apps.id').onDelete('cascade'))
    .addColumn('workspace_id', TEXT, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('callback_url', TEXT, (c) => c.notNull())
    .addColumn('code_challenge', TEXT)
    .addColumn('code_challenge_method', TEXT)
    .addColumn('key_label', TEXT, (c) => c.notNull())
    .addColumn('limit_usd', MONEY)
    .addColumn('limit_reset', TEXT)
    .addColumn('key_expires_at', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('expires_at', TEXT, (c) => c.notNull())
    .addColumn('used_at', TEXT)
    .execute();
  await db.schema
    .createIndex('authorization_codes_challenge')
    .on('authorization_codes')
    .columns(['organization_id', 'code_challenge'])
    .execute();
}
