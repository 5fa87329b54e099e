import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FilesService } from '../../files/files-service.js';
import { ACCEPTED_TYPES, sniffFileType } from '../../files/sniff-file-type.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { takeMultipart } from '../../http/form/read-form.js';
import type { Services } from '../../services.js';
import type { ApiKeyRow } from '../../store/repositories/api-keys.js';
import { deleteFileRow, findFile, insertFileWithinQuota, listFiles, workspaceStorageUsed } from '../../store/repositories/files.js';
import { newFileId } from '../../util/ids.js';
import { requestWorkspace } from '../../workspaces/request-workspace.js';
import { filePage } from './file-page.js';
import { toDeletedRecord, toFileRecord } from './file-record.js';
import { refuseProviderStorage } from './file-workspace.js';
import { readFileUpload } from './read-file-upload.js';
import { DEFAULT_PURPOSE, FILE_PURPOSES, FileParams, ListFilesQuery, ScopeQuery } from './schemas.js';

/** The longest filename kept, in characters (a file system's usual limit). */
const MAX_FILENAME = 255;

/** `purpose` as OpenAI's files.create sends it (once, one of its purposes); `user_data` when absent. */
function purposeOf(fields: Map<string, string[]>): string {
  const values = fields.get('purpose') ?? [];
  if (values.length > 1) throw Errors.invalidRequest(`purpose must be sent once (it was sent ${values.length} times)`);
  const [purpose = DEFAULT_PURPOSE] = values;
  if (!(FILE_PURPOSES as readonly string[]).includes(purpose))
    throw Errors.invalidRequest(`purpose must be one of ${FILE_PURPOSES.join(', ')} (got "${purpose.slice(0, 64)}")`);
  return purpose;
}

/** The 400 a stored part earns (no name, no bytes, a type not taken), with its media type when it earns none. */
function checkPart(part: { filename: string; size: number; head: Buffer }): { mimeType: string } {
  if (part.filename.trim() === '')
    throw Errors.invalidRequest('file: the part has no filename; send it as Content-Disposition: form-data; name="file"; filename="…"');
  if ([...part.filename].length > MAX_FILENAME) throw Errors.invalidRequest(`file: the filename is longer than ${MAX_FILENAME} characters`);
  if (part.size === 0) throw Errors.invalidRequest('file: the file is empty (0 bytes); upload a file with content');
  const mimeType = sniffFileType(part.head, part.size === part.head.length, part.filename);
  if (!mimeType) throw Errors.fileTypeUnsupported(ACCEPTED_TYPES);
  return { mimeType };
}

/**
 * The reference's files (GET/POST /files, GET/DELETE /files/{file_id},
 * GET /files/{file_id}/content), for any key: a file belongs to a
 * workspace, the key's own (or one a management key names with
 * `workspace_id`); another workspace's file is as absent as a missing one.
 * An upload streams to the storage and counts toward the workspace's quota.
 */
export function filesRoutes(services: Services & { files: FilesService }): FastifyPluginAsyncTypebox {
  const { db, clock, auth, files } = services;
  const { storage } = files;

  return async (app) => {
    takeMultipart(app);
    const onRequest = auth.requireKey;

    app.post('/files', { onRequest, schema: { querystring: ScopeQuery } }, async (request, reply) => {
      const key = callerKey(request);
      refuseProviderStorage(request.query.provider);
      const workspaceId = await requestWorkspace(db, key, request.query.workspace_id);
      const usedBytes = await workspaceStorageUsed(db, workspaceId);
      const quotaBytes = files.workspaceQuotaBytes;
      if (usedBytes >= quotaBytes)
        throw Errors.storageQuotaExceeded({ quota_bytes: quotaBytes, used_bytes: usedBytes }, quotaBytes, usedBytes);
      const id = newFileId();
      const { fields, file } = await readFileUpload(request, reply, storage, id, { maxBytes: files.maxBytes, quotaBytes, usedBytes });
      try {
        if (!file)
          throw Errors.invalidRequest(
            fields.has('file')
              ? 'file: the part has no filename; send it as Content-Disposition: form-data; name="file"; filename="…"'
              : 'file is required: the file to upload, as a multipart part named "file"',
          );
        const { mimeType } = checkPart(file);
        const row = {
          id,
          organization_id: key.organization_id,
          workspace_id: workspaceId,
          filename: file.filename,
          mime_type: mimeType,
          size_bytes: file.size,
          purpose: purposeOf(fields),
          storage: storage.kind,
          api_key_hash: key.hash,
          created_at: clock().toISOString(),
        };
        // Another upload to the workspace may have taken the room since: the row is written only within the quota.
        if (!(await insertFileWithinQuota(db, row, quotaBytes))) {
          const used = await workspaceStorageUsed(db, workspaceId);
          throw Errors.storageQuotaExceeded({ quota_bytes: quotaBytes, used_bytes: used }, quotaBytes, used);
        }
        return reply.code(200).send(toFileRecord(row));
      } catch (error) {
        if (file) await storage.remove(id);
        throw error;
      }
    });

    app.get('/files', { onRequest, schema: { querystring: ListFilesQuery } }, async (request) => {
      const key = callerKey(request);
      refuseProviderStorage(request.query.provider);
      const workspaceId = await requestWorkspace(db, key, request.query.workspace_id);
      const reach = { organizationId: key.organization_id, workspaceId };
      const page = await filePage(db, workspaceId, request.query);
      const rows = await listFiles(db, reach, page);
      const data = rows.slice(0, page.limit).map(toFileRecord);
      const hasMore = rows.length > page.limit;
      const lastId = data.at(-1)?.id ?? null;
      return {
        _shape: 'openrouter',
        object: 'list',
        data,
        has_more: hasMore,
        first_id: data[0]?.id ?? null,
        last_id: lastId,
        cursor: hasMore && lastId ? Buffer.from(JSON.stringify({ after: lastId })).toString('base64url') : null,
      };
    });

    /** The file of the caller's workspace (or the one it names) named in the path, or a 404. */
    const fileOf = async (key: ApiKeyRow, fileId: string, query: { workspace_id?: string; provider?: string }) => {
      refuseProviderStorage(query.provider);
      const found = await findFile(db, await requestWorkspace(db, key, query.workspace_id), fileId);
      if (!found) throw Errors.notFound(`File ${fileId}`);
      return found;
    };

    app.get('/files/:file_id', { onRequest, schema: { params: FileParams, querystring: ScopeQuery } }, async (request) =>
      toFileRecord(await fileOf(callerKey(request), request.params.file_id, request.query)),
    );

    app.get('/files/:file_id/content', { onRequest, schema: { params: FileParams, querystring: ScopeQuery } }, async (request, reply) => {
      const file = await fileOf(callerKey(request), request.params.file_id, request.query);
      // Sent as bytes to save, never rendered: an uploaded HTML or SVG file runs no script in the gateway's origin.
      void reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', file.size_bytes)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
        .header('x-content-type-options', 'nosniff');
      return reply.send(storage.read(file.id));
    });

    app.delete(
      '/files/:file_id',
      { onRequest: auth.requireKeyForFreeChange, schema: { params: FileParams, querystring: ScopeQuery } },
      async (request) => {
        const key = callerKey(request);
        refuseProviderStorage(request.query.provider);
        const workspaceId = await requestWorkspace(db, key, request.query.workspace_id);
        const deleted = await deleteFileRow(db, workspaceId, request.params.file_id);
        if (!deleted) throw Errors.notFound(`File ${request.params.file_id}`);
        // The row first: from then on no request finds the file, so its bytes can go.
        await storage.remove(deleted.id);
        return toDeletedRecord(deleted.id);
      },
    );
  };
}
