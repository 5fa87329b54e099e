import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/**
 * Workspaces are the boundary of presets and interns (issue 31). A preset's
 * slug becomes unique in its workspace, not its organization, so that each
 * workspace has its own slugs and a duplicate tells nothing of another
 * workspace. An intern made before workspaces were checked may name its
 * workspace by slug, or one that is not its organization's: it moves to that
 * slug's workspace, else to the organization's default one.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  if (engine === 'postgres') {
    await sql`alter table presets drop constraint presets_org_slug`.execute(db);
    await sql`alter table presets add constraint presets_workspace_slug unique (workspace_id, slug)`.execute(db);
  } else {
    // SQLite cannot drop a table constraint: the table is rebuilt. Without foreign keys for the while, so that
    // dropping the old table does not cascade to preset_versions (SQLite runs migrations outside a transaction).
    await sql`pragma foreign_keys = off`.execute(db);
    await presetsTable(db, 'presets_next');
    await sql`insert into presets_next select id, organization_id, workspace_id, slug, name, description, creator_user_id,
      designated_version_id, created_at, updated_at from presets`.execute(db);
    await db.schema.dropTable('presets').execute();
    await db.schema.alterTable('presets_next').renameTo('presets').execute();
    await sql`pragma foreign_keys = on`.execute(db);
  }

  await sql`update interns set workspace_id = coalesce(
      (select w.id from workspaces w where w.organization_id = interns.organization_id and w.slug = interns.workspace_id),
      (select w.id from workspaces w where w.organization_id = interns.organization_id and w.is_default = 1))
    where not exists (select 1 from workspaces w where w.id = interns.workspace_id and w.organization_id = interns.organization_id)
      and exists (select 1 from workspaces w where w.organization_id = interns.organization_id and w.is_default = 1)`.execute(db);
  await db.schema.createIndex('interns_workspace').on('interns').columns(['workspace_id', 'created_at', 'id']).execute();
}

/** The presets table of 0004, its slugs unique per workspace. */
async function presetsTable(db: Kysely<unknown>, name: string): Promise<void> {
  await db.schema
    .createTable(name)
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('slug', TEXT, (c) => c.notNull())
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('description', TEXT)
    .addColumn('creator_user_id', TEXT)
    .addColumn('designated_version_id', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addUniqueConstraint('presets_workspace_slug', ['workspace_id', 'slug'])
    .execute();
}
