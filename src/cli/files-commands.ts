import { InvalidArgumentError } from 'commander';
import { toDeletedRecord, toFileRecord } from '../api/files/file-record.js';
import { workspaceOf } from '../api/workspaces/workspace-operations.js';
import type { FileSettings } from '../files/file-settings.js';
import { openFileStorage } from '../files/open-file-storage.js';
import type { StorageKind } from '../files/storage/file-storage.js';
import { organizationReach } from '../store/reach.js';
import { deleteFileRow, listFiles } from '../store/repositories/files.js';
import type { KeyCommandContext } from './keys-commands.js';
import { formatJson, formatTable } from './output.js';

// `model-gateway files …`: the default organization's uploaded files, as the files API has them.

export interface ListFilesOptions {
  workspace?: string;
  limit?: string;
  json: boolean;
}

const LIST_LIMIT = 100;

/** `files list`: the organization's files (or one workspace's), newest first. */
export async function listFilesCommand({ store, organizationId }: KeyCommandContext, options: ListFilesOptions): Promise<string> {
  const limit = options.limit === undefined ? LIST_LIMIT : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new InvalidArgumentError('--limit must be a whole number from 1 to 1000');
  const organization = organizationReach(organizationId);
  const reach = options.workspace
    ? { organizationId, workspaceId: (await workspaceOf(store.db, organization, options.workspace)).id }
    : organization;
  const rows = await listFiles(store.db, reach, { limit, order: 'desc' });
  const data = rows.slice(0, limit).map((row) => ({ ...toFileRecord(row), workspace_id: row.workspace_id }));
  if (options.json) return formatJson({ data, has_more: rows.length > limit });
  const table = formatTable(
    ['ID', 'WORKSPACE', 'FILENAME', 'TYPE', 'BYTES', 'CREATED'],
    data.map((f) => [f.id, f.workspace_id, f.filename, f.mime_type, f.size_bytes, f.created_at]),
  );
  return rows.length > limit ? `${table}(${limit} newest shown; --limit for more)\n` : table;
}

/** `files delete <id>`: as `DELETE /files/{file_id}` does, the bytes taken from the storage the file was written to. */
export async function deleteFileCommand(
  { store, organizationId }: KeyCommandContext,
  settings: FileSettings,
  fileId: string,
  json: boolean,
): Promise<string> {
  const row = await store.db
    .selectFrom('files')
    .select(['id', 'workspace_id'])
    .where('id', '=', fileId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  const deleted = row && (await deleteFileRow(store.db, row.workspace_id, row.id));
  if (!deleted) throw new InvalidArgumentError(`File ${fileId} not found`);
  await openFileStorage({ ...settings, storage: deleted.storage as StorageKind }, store.db).remove(deleted.id);
  return json ? formatJson(toDeletedRecord(deleted.id)) : `deleted ${deleted.id} (${deleted.filename}, ${deleted.size_bytes} bytes)\n`;
}
