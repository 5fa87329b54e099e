import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { COUNT, INT, TEXT } from './column-types.js';

/**
 * Files uploaded through POST /files (the reference's Files operations): a row per file of a workspace, and,
 * for the `database` storage (several instances sharing files), the file's bytes in chunks of at most
 * 1 MiB, so that neither writing nor reading one holds the file in memory.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('workspace_id', TEXT, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('filename', TEXT, (c) => c.notNull())
    .addColumn('mime_type', TEXT, (c) => c.notNull())
    .addColumn('size_bytes', COUNT, (c) => c.notNull())
    .addColumn('purpose', TEXT, (c) => c.notNull())
    /** Where its bytes are: the storage it was written to (directory, database). */
    .addColumn('storage', TEXT, (c) => c.notNull())
    .addColumn('api_key_hash', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();
  // Listing pages by workspace in creation order, and the quota's sum per workspace.
  await db.schema.createIndex('files_workspace_created').on('files').columns(['workspace_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('file_chunks')
    .addColumn('file_id', TEXT, (c) => c.notNull())
    .addColumn('seq', INT, (c) => c.notNull())
    .addColumn('data', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_chunks_pk', ['file_id', 'seq'])
    .execute();
}
