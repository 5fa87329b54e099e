import { basename } from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Containers } from '../../containers/containers.js';
import type { FilesService } from '../../files/files-service.js';
import { ACCEPTED_TYPES, sniffFileType } from '../../files/sniff-file-type.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import type { ApiKeyRow } from '../../store/repositories/api-keys.js';
import {
  deleteContainerRow,
  findContainer,
  findContainerFile,
  listContainerFiles,
  listContainers,
} from '../../store/repositories/containers.js';
import { insertFileWithinQuota, workspaceStorageUsed } from '../../store/repositories/files.js';
import { newFileId } from '../../util/ids.js';
import { requestWorkspace } from '../../workspaces/request-workspace.js';
import { toFileRecord } from '../files/file-record.js';
import { keepingHead } from '../files/read-file-upload.js';
import { toContainerFileRecord, toContainerRecord } from './container-record.js';
import { CONTAINERS_PAGE_SIZE, ContainerFileParams, ContainerParams, CreateContainerBody, ListQuery, ScopeQuery } from './schemas.js';

/** OpenAI's list envelope of a page that fetched one more row than it shows. */
function page<R, T extends { id: string }>(rows: readonly R[], limit: number, toRecord: (row: R) => T) {
  const data = rows.slice(0, limit).map(toRecord);
  return { object: 'list' as const, data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rows.length > limit };
}

/**
 * OpenAI's containers API over the workspace's containers (docs/containers.md):
 * create, list, read and delete them, list their files in path order, read
 * one and its bytes, and promote one into the files API. A container or file
 * of another workspace is as absent as a missing one (404).
 */
export function containersRoutes(services: Services & { containers: Containers; files: FilesService }): FastifyPluginAsyncTypebox {
  const { db, auth, containers, files } = services;
  const onRequest = auth.requireKey;

  /** The container of the caller's workspace (or the one it names) in the path, or a 404. */
  const containerOf = async (key: ApiKeyRow, id: string, workspaceId: string | undefined) => {
    const found = await findContainer(db, await requestWorkspace(db, key, workspaceId), id);
    if (!found) throw Errors.notFound(`Container ${id}`);
    return found;
  };
  const fileOf = async (key: ApiKeyRow, params: { container_id: string; file_id: string }, workspaceId: string | undefined) => {
    const container = await containerOf(key, params.container_id, workspaceId);
    const file = await findContainerFile(db, container.id, params.file_id);
    if (!file) throw Errors.notFound(`Container file ${params.file_id}`);
    return file;
  };

  return async (app) => {
    app.post('/containers', { onRequest, schema: { querystring: ScopeQuery, body: CreateContainerBody } }, async (request) => {
      const key = callerKey(request);
      const workspaceId = await requestWorkspace(db, key, request.query.workspace_id);
      const row = await containers.create({ organizationId: key.organization_id, workspaceId, keyHash: key.hash }, request.body?.name);
      return toContainerRecord(row);
    });

    app.get('/containers', { onRequest, schema: { querystring: ListQuery } }, async (request) => {
      const key = callerKey(request);
      const workspaceId = await requestWorkspace(db, key, request.query.workspace_id);
      const limit = request.query.limit ?? CONTAINERS_PAGE_SIZE;
      const order = request.query.order ?? 'desc';
      let after: Awaited<ReturnType<typeof findContainer>>;
      if (request.query.after !== undefined) {
        after = await findContainer(db, workspaceId, request.query.after);
        if (!after) throw Errors.invalidRequest(`after: no container ${request.query.after} in this workspace to list after`);
      }
      return page(await listContainers(db, workspaceId, { limit, order, ...(after ? { after } : {}) }), limit, toContainerRecord);
    });

    app.get('/containers/:container_id', { onRequest, schema: { params: ContainerParams, querystring: ScopeQuery } }, async (request) =>
      toContainerRecord(await containerOf(callerKey(request), request.params.container_id, request.query.workspace_id)),
    );

    app.delete(
      '/containers/:container_id',
      { onRequest, schema: { params: ContainerParams, querystring: ScopeQuery } },
      async (request) => {
        const key = callerKey(request);
        const workspaceId = await requestWorkspace(db, key, request.query.workspace_id);
        const deleted = await deleteContainerRow(db, workspaceId, request.params.container_id);
        if (!deleted) throw Errors.notFound(`Container ${request.params.container_id}`);
        // The row first: from then on no request finds the container, so its files can go.
        await containers.discard(deleted.id);
        return { id: deleted.id, object: 'container.deleted' as const, deleted: true as const };
      },
    );

    app.get(
      '/containers/:container_id/files',
      { onRequest, schema: { params: ContainerParams, querystring: ListQuery } },
      async (request) => {
        const key = callerKey(request);
        const container = await containerOf(key, request.params.container_id, request.query.workspace_id);
        const limit = request.query.limit ?? CONTAINERS_PAGE_SIZE;
        let afterPath: string | undefined;
        if (request.query.after !== undefined) {
          const after = await findContainerFile(db, container.id, request.query.after);
          if (!after) throw Errors.invalidRequest(`after: no file ${request.query.after} in this container to list after`);
          afterPath = after.path;
        }
        const order = request.query.order ?? 'asc';
        const rows = await listContainerFiles(db, container.id, { limit, order, ...(afterPath !== undefined ? { afterPath } : {}) });
        return page(rows, limit, toContainerFileRecord);
      },
    );

    app.get(
      '/containers/:container_id/files/:file_id',
      { onRequest, schema: { params: ContainerFileParams, querystring: ScopeQuery } },
      async (request) => toContainerFileRecord(await fileOf(callerKey(request), request.params, request.query.workspace_id)),
    );

    app.get(
      '/containers/:container_id/files/:file_id/content',
      { onRequest, schema: { params: ContainerFileParams, querystring: ScopeQuery } },
      async (request, reply) => {
        const file = await fileOf(callerKey(request), request.params, request.query.workspace_id);
        const stream = await containers.openFile(file);
        // Sent as bytes to save, never rendered: what the code wrote runs no script in the gateway's origin.
        void reply
          .header('content-type', 'application/octet-stream')
          .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(basename(file.path))}`)
          .header('x-content-type-options', 'nosniff');
        return reply.send(stream);
      },
    );

    app.post(
      '/containers/:container_id/files/:file_id/promote',
      { onRequest, schema: { params: ContainerFileParams, querystring: ScopeQuery } },
      async (request, reply) => {
        const key = callerKey(request);
        const file = await fileOf(key, request.params, request.query.workspace_id);
        const bytes = Number(file.bytes);
        if (bytes > files.maxBytes)
          throw Errors.uploadTooLarge(`the file is ${bytes} bytes; the files API takes at most ${files.maxBytes}`);
        const quotaBytes = files.workspaceQuotaBytes;
        const quotaError = async () => {
          const used = await workspaceStorageUsed(db, file.workspace_id);
          return Errors.storageQuotaExceeded({ quota_bytes: quotaBytes, used_bytes: used }, quotaBytes, used);
        };
        if ((await workspaceStorageUsed(db, file.workspace_id)) + bytes > quotaBytes) throw await quotaError();
        const id = newFileId();
        const part = { head: Buffer.alloc(0) };
        const size = await files.storage.write(id, keepingHead(await containers.openFile(file), part));
        try {
          const filename = basename(file.path);
          const mimeType = sniffFileType(part.head, size === part.head.length, filename);
          if (!mimeType) throw Errors.fileTypeUnsupported(ACCEPTED_TYPES);
          const row = {
            id,
            organization_id: key.organization_id,
            workspace_id: file.workspace_id,
            filename,
            mime_type: mimeType,
            size_bytes: size,
            purpose: 'user_data',
            storage: files.storage.kind,
            api_key_hash: key.hash,
            created_at: services.clock().toISOString(),
          };
          if (!(await insertFileWithinQuota(db, row, quotaBytes))) throw await quotaError();
          return reply.code(200).send(toFileRecord(row));
        } catch (error) {
          await files.storage.remove(id);
          throw error;
        }
      },
    );
  };
}
