import type { Kysely, Selectable } from 'kysely';
import { afterInCreationOrder, type CreationOrderPage } from '../creation-order-page.js';
import { type Reach, reachClause } from '../reach.js';
import type { Database, FilesTable } from '../schema.js';
import { containerBytes } from './containers.js';

export type FileRow = Selectable<FilesTable>;

/** The bytes a workspace's files hold together, its containers' files included (docs/containers.md). */
export async function workspaceStorageUsed(db: Kysely<Database>, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size_bytes'), eb.lit(0)).as('used'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.used) + (await containerBytes(db, { workspaceId }));
}

/**
 * Records a stored file if its workspace's files stay within `quotaBytes` with it, in one transaction
 * (the sum is read where the row is written); false, and nothing written, when they would not.
 */
export function insertFileWithinQuota(db: Kysely<Database>, row: FileRow, quotaBytes: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if ((await workspaceStorageUsed(trx, row.workspace_id)) + row.size_bytes > quotaBytes) return false;
    await trx.insertInto('files').values(row).execute();
    return true;
  });
}

/** A file of the workspace, or undefined (another workspace's too). */
export function findFile(db: Kysely<Database>, workspaceId: string, id: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
}

/** Up to `limit + 1` files of the workspaces the reach reaches, in creation order (ties by id): one more tells there are more. */
export function listFiles(db: Kysely<Database>, reach: Reach, page: CreationOrderPage): Promise<FileRow[]> {
  let query = db
    .selectFrom('files')
    .selectAll()
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .orderBy('created_at', page.order)
    .orderBy('id', page.order)
    .limit(page.limit + 1);
  if (page.after) query = query.where(afterInCreationOrder(page.after, page.order));
  return query.execute();
}

/** Deletes a file's row; the file as it was, or undefined when the workspace has no such file. */
export function deleteFileRow(db: Kysely<Database>, workspaceId: string, id: string): Promise<FileRow | undefined> {
  return db.deleteFrom('files').where('id', '=', id).where('workspace_id', '=', workspaceId).returningAll().executeTakeFirst();
}
