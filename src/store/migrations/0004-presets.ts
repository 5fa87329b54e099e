import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { INT, TEXT } from './column-types.js';

/**
 * Presets and their immutable versions: an edit of the settings adds a version
 * and points the preset at it, so earlier versions stay readable.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('presets')
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
    .addUniqueConstraint('presets_org_slug', ['organization_id', 'slug'])
    .execute();
  await db.schema
    .createTable('preset_versions')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('preset_id', TEXT, (c) => c.notNull().references('presets.id').onDelete('cascade'))
    .addColumn('version', INT, (c) => c.notNull())
    .addColumn('creator_id', TEXT, (c) => c.notNull())
    .addColumn('system_prompt', TEXT)
    /** JSON: the chat-request fields the preset sets. */
    .addColumn('config', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addUniqueConstraint('preset_versions_preset_version', ['preset_id', 'version'])
    .execute();
}
