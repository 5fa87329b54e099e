import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Engine } from '../database.js';
import { INT, TEXT } from './column-types.js';

/**
 * SCIM 2.0 provisioning (RFC 7643/7644; the reference's /scim operations): an organization's SCIM
 * bearer token (its hash only), the users an identity provider provisioned with their SCIM attributes,
 * its groups and their members, and the mappings that put a group's members in a workspace with a role.
 * A workspace membership a mapping granted is marked, so that SCIM takes away only what it gave.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  // One token per organization: creating another rotates it.
  await db.schema
    .createTable('scim_tokens')
    .addColumn('organization_id', TEXT, (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('token_hash', TEXT, (c) => c.notNull().unique())
    .addColumn('label', TEXT, (c) => c.notNull())
    .addColumn('created_by', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();

  // The SCIM id of a user is its users.id; userName is unique in the organization regardless of case (RFC 7643 §4.1.1).
  await db.schema
    .createTable('scim_users')
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', TEXT, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_name', TEXT, (c) => c.notNull())
    .addColumn('user_name_key', TEXT, (c) => c.notNull())
    .addColumn('external_id', TEXT)
    .addColumn('display_name', TEXT)
    // As the identity provider sent them: the shared `users` row follows only while no other organization knows the user.
    .addColumn('given_name', TEXT)
    .addColumn('family_name', TEXT)
    .addColumn('email', TEXT)
    .addColumn('active', INT, (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('scim_users_pk', ['organization_id', 'user_id'])
    .addUniqueConstraint('scim_users_user_name', ['organization_id', 'user_name_key'])
    .execute();

  await db.schema
    .createTable('scim_groups')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('display_name', TEXT, (c) => c.notNull())
    .addColumn('external_id', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scim_groups_org_name').on('scim_groups').columns(['organization_id', 'display_name']).execute();

  await db.schema
    .createTable('scim_group_members')
    .addColumn('group_id', TEXT, (c) => c.notNull().references('scim_groups.id').onDelete('cascade'))
    .addColumn('user_id', TEXT, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('scim_group_members_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('scim_group_members_user').on('scim_group_members').columns(['organization_id', 'user_id']).execute();

  await db.schema
    .createTable('scim_group_mappings')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('scim_group_id', TEXT, (c) => c.notNull().references('scim_groups.id').onDelete('cascade'))
    .addColumn('workspace_id', TEXT, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('role', TEXT, (c) => c.notNull().check(sql`role in ('admin', 'member')`))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addUniqueConstraint('scim_group_mappings_pair', ['scim_group_id', 'workspace_id'])
    .execute();
  await db.schema.createIndex('scim_group_mappings_org').on('scim_group_mappings').columns(['organization_id', 'created_at']).execute();

  // 1 when a group mapping granted this membership: SCIM changes and removes only these, never one added by hand.
  await db.schema
    .alterTable('workspace_members')
    .addColumn('scim_managed', INT, (c) => c.notNull().defaultTo(0))
    .execute();
}
