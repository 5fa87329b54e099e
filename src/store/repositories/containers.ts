import type { Kysely, Selectable } from 'kysely';
import { newContainerFileId } from '../../util/ids.js';
import { afterInCreationOrder, type CreationOrderPage } from '../creation-order-page.js';
import type { ContainerFilesTable, ContainersTable, Database } from '../schema.js';

export type ContainerRow = Selectable<ContainersTable>;
export type ContainerFileRow = Selectable<ContainerFilesTable>;

export function insertContainer(db: Kysely<Database>, row: ContainerRow): Promise<unknown> {
  return db.insertInto('containers').values(row).execute();
}

/** A container of the workspace, or undefined (another workspace's too). */
export function findContainer(db: Kysely<Database>, workspaceId: string, id: string): Promise<ContainerRow | undefined> {
  return db.selectFrom('containers').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
}

/** Up to `limit + 1` containers of the workspace in creation order (ties by id): one more tells there are more. */
export function listContainers(db: Kysely<Database>, workspaceId: string, page: CreationOrderPage): Promise<ContainerRow[]> {
  let query = db
    .selectFrom('containers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at', page.order)
    .orderBy('id', page.order)
    .limit(page.limit + 1);
  if (page.after) query = query.where(afterInCreationOrder(page.after, page.order));
  return query.execute();
}

/** Deletes a container's row (its files' rows go with it); the row as it was, or undefined. */
export function deleteContainerRow(db: Kysely<Database>, workspaceId: string, id: string): Promise<ContainerRow | undefined> {
  return db.deleteFrom('containers').where('id', '=', id).where('workspace_id', '=', workspaceId).returningAll().executeTakeFirst();
}

/** The containers whose last use is before `before` (ISO), oldest first, up to `limit`. */
export function idleContainers(db: Kysely<Database>, before: string, limit: number): Promise<ContainerRow[]> {
  return db.selectFrom('containers').selectAll().where('last_active_at', '<', before).orderBy('last_active_at').limit(limit).execute();
}

export function deleteContainerById(db: Kysely<Database>, id: string): Promise<unknown> {
  return db.deleteFrom('containers').where('id', '=', id).execute();
}

/** Up to `limit + 1` files of the container in path order, after the path `afterPath` when given. */
export function listContainerFiles(
  db: Kysely<Database>,
  containerId: string,
  page: { limit: number; order: 'asc' | 'desc'; afterPath?: string },
): Promise<ContainerFileRow[]> {
  let query = db
    .selectFrom('container_files')
    .selectAll()
    .where('container_id', '=', containerId)
    .orderBy('path', page.order)
    .limit(page.limit + 1);
  if (page.afterPath !== undefined) query = query.where('path', page.order === 'asc' ? '>' : '<', page.afterPath);
  return query.execute();
}

export function findContainerFile(db: Kysely<Database>, containerId: string, id: string): Promise<ContainerFileRow | undefined> {
  return db.selectFrom('container_files').selectAll().where('id', '=', id).where('container_id', '=', containerId).executeTakeFirst();
}

/** The bytes the containers' files of a workspace (or of one container) hold together: they count toward its storage quota. */
export async function containerBytes(db: Kysely<Database>, of: { workspaceId: string; containerId?: string }): Promise<number> {
  let query = db
    .selectFrom('container_files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('used'))
    .where('workspace_id', '=', of.workspaceId);
  if (of.containerId !== undefined) query = query.where('container_id', '=', of.containerId);
  return Number((await query.executeTakeFirstOrThrow()).used);
}

/**
 * Makes the container's file rows what its work directory holds after a run
 * (or after files were copied in), and marks it used, in one transaction: a
 * path keeps its id, a new path gets one (`source`: `assistant` when the code
 * wrote it, `user` when the request's files were copied in), a path gone
 * loses its row.
 */
export function syncContainerFiles(
  db: Kysely<Database>,
  container: Pick<ContainerRow, 'id' | 'workspace_id'>,
  tree: readonly { path: string; bytes: number }[],
  now: string,
  source: 'assistant' | 'user' = 'assistant',
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('container_files').select(['id', 'path', 'bytes']).where('container_id', '=', container.id).execute();
    const byPath = new Map(rows.map((r) => [r.path, r]));
    const kept = new Set(tree.map((f) => f.path));
    const gone = rows.filter((r) => !kept.has(r.path)).map((r) => r.id);
    if (gone.length > 0) await trx.deleteFrom('container_files').where('id', 'in', gone).execute();
    for (const file of tree) {
      const row = byPath.get(file.path);
      if (!row)
        await trx
          .insertInto('container_files')
          .values({
            id: newContainerFileId(),
            container_id: container.id,
            workspace_id: container.workspace_id,
            path: file.path,
            bytes: file.bytes,
            source,
            created_at: now,
            updated_at: now,
          })
          .execute();
      else if (Number(row.bytes) !== file.bytes)
        await trx.updateTable('container_files').set({ bytes: file.bytes, updated_at: now }).where('id', '=', row.id).execute();
    }
    await trx.updateTable('containers').set({ last_active_at: now }).where('id', '=', container.id).execute();
  });
}
