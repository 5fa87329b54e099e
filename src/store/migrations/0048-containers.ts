import type { Kysely } from 'kysely';
import { COUNT, TEXT } from './column-types.js';

/**
 * Containers (docs/containers.md): a workspace's sandboxes where the
 * code_interpreter tool runs Python, and a row per file in one's work
 * directory (whose bytes are on the instance's disk, under CONTAINERS_DIR).
 * A container expires 30 days after its last use.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('containers')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('workspace_id', TEXT, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('api_key_hash', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('last_active_at', TEXT, (c) => c.notNull())
    .execute();
  // Listing by workspace in creation order; the expiry sweep by last use.
  await db.schema.createIndex('containers_workspace_created').on('containers').columns(['workspace_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('containers_last_active').on('containers').column('last_active_at').execute();

  await db.schema
    .createTable('container_files')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('container_id', TEXT, (c) => c.notNull().references('containers.id').onDelete('cascade'))
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    /** Under the work directory, '/'-separated (the API shows it under /mnt/data). */
    .addColumn('path', TEXT, (c) => c.notNull())
    .addColumn('bytes', COUNT, (c) => c.notNull())
    /** `assistant`: the code wrote it. */
    .addColumn('source', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .execute();
  // Listing in path order, one row per path; the quota's sum per workspace.
  await db.schema.createIndex('container_files_path').on('container_files').columns(['container_id', 'path']).unique().execute();
  await db.schema.createIndex('container_files_workspace').on('container_files').column('workspace_id').execute();
}
