import { AddMembersBody, CreateWorkspaceBody, ListQuery, RemoveMembersBody, WORKSPACES_PAGE_SIZE } from '../api/workspaces/schemas.js';
import { addMembers, newWorkspace, removeMembers, workspaceOf } from '../api/workspaces/workspace-operations.js';
import { toWorkspaceRecord } from '../api/workspaces/workspace-record.js';
import { buildCatalog } from '../catalog/build-catalog.js';
import { loadGatewayConfig } from '../config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../providers/registry.js';
import { organizationReach } from '../store/reach.js';
import { listWorkspaceMembers, type WorkspaceMember } from '../store/repositories/workspace-members.js';
import { listWorkspaces } from '../store/repositories/workspaces.js';
import { checkAsApi } from './api-rules.js';
import type { KeyCommandContext } from './keys-commands.js';
import { formatFields, formatJson, formatTable } from './output.js';

// `model-gateway workspaces …`: the operations of /api/v1/workspaces on the default organization, with the API's rules and messages.

export interface PageOptions {
  offset?: string;
  limit?: string;
  json: boolean;
}

const pageOf = (options: PageOptions) => {
  const query = checkAsApi(
    ListQuery,
    {
      ...(options.offset !== undefined ? { offset: options.offset } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
    },
    'querystring',
  );
  return { offset: query.offset ?? 0, limit: query.limit ?? WORKSPACES_PAGE_SIZE };
};

/** What follows a page that is not the last: how to ask for the next. */
const more = (offset: number, shown: number, total: number) =>
  offset + shown < total ? `(${shown} of ${total} shown; --offset ${offset + shown} for more)\n` : '';

/** `workspaces list`: as `GET /workspaces` gives them. */
export async function listWorkspacesCommand({ store, organizationId }: KeyCommandContext, options: PageOptions): Promise<string> {
  const page = pageOf(options);
  const { rows, total } = await listWorkspaces(store.db, organizationReach(organizationId), page);
  const data = rows.map(toWorkspaceRecord);
  if (options.json) return formatJson({ data, total_count: total });
  const table = formatTable(
    ['ID', 'SLUG', 'NAME', 'TEXT MODEL', 'IMAGE MODEL', 'SORT'],
    data.map((w) => [w.id, w.slug, w.name, w.default_text_model, w.default_image_model, w.default_provider_sort]),
  );
  return table + more(page.offset, data.length, total);
}

export interface CreateWorkspaceOptions {
  name: string;
  slug: string;
  description?: string;
  defaultTextModel?: string;
  defaultImageModel?: string;
  defaultProviderSort?: string;
  json: boolean;
}

/** `workspaces create`: as `POST /workspaces` does; default models are checked against the catalog `serve` would build from the config. */
export async function createWorkspaceCommand(
  { store, organizationId, now }: KeyCommandContext,
  configPath: string | undefined,
  options: CreateWorkspaceOptions,
): Promise<string> {
  const body = checkAsApi(
    CreateWorkspaceBody,
    {
      name: options.name,
      slug: options.slug,
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.defaultTextModel !== undefined ? { default_text_model: options.defaultTextModel } : {}),
      ...(options.defaultImageModel !== undefined ? { default_image_model: options.defaultImageModel } : {}),
      ...(options.defaultProviderSort !== undefined ? { default_provider_sort: options.defaultProviderSort } : {}),
    },
    'body',
  );
  const config = configPath ? loadGatewayConfig(configPath, { knownKinds: PROVIDER_KINDS }) : undefined;
  const catalog = buildCatalog({ ...(config ? { config } : {}), env: process.env, knownKinds: PROVIDER_KINDS });
  const record = toWorkspaceRecord(await newWorkspace(store.db, catalog, organizationId, null, body, now.toISOString()));
  return options.json ? formatJson({ data: record }) : formatFields(record);
}

const membersTable = (members: readonly WorkspaceMember[]) =>
  formatTable(
    ['USER ID', 'ROLE', 'SINCE'],
    members.map((m) => [m.user_id, m.role, m.created_at]),
  );

/** `workspaces members list <workspace>`: as `GET /workspaces/{id}/members` gives them. */
export async function listMembersCommand(
  { store, organizationId }: KeyCommandContext,
  workspaceId: string,
  options: PageOptions,
): Promise<string> {
  const page = pageOf(options);
  const workspace = await workspaceOf(store.db, organizationReach(organizationId), workspaceId);
  const { members, total } = await listWorkspaceMembers(store.db, workspace, page);
  if (options.json) return formatJson({ data: members, total_count: total });
  return membersTable(members) + more(page.offset, members.length, total);
}

/** `workspaces members add <workspace> <user ids…>`: as `POST /workspaces/{id}/members/add` does. */
export async function addMembersCommand(
  { store, organizationId, now }: KeyCommandContext,
  workspaceId: string,
  userIds: string[],
  options: { role?: string; json: boolean },
): Promise<string> {
  const body = checkAsApi(AddMembersBody, { user_ids: userIds, ...(options.role !== undefined ? { role: options.role } : {}) }, 'body');
  const workspace = await workspaceOf(store.db, organizationReach(organizationId), workspaceId);
  const members = await addMembers(store.db, workspace, body, now.toISOString());
  return options.json ? formatJson({ data: members, added_count: members.length }) : membersTable(members);
}

/** `workspaces members remove <workspace> <user ids…>`: as `POST /workspaces/{id}/members/remove` does. */
export async function removeMembersCommand(
  { store, organizationId, now }: KeyCommandContext,
  workspaceId: string,
  userIds: string[],
  options: { json: boolean },
): Promise<string> {
  const body = checkAsApi(RemoveMembersBody, { user_ids: userIds }, 'body');
  const workspace = await workspaceOf(store.db, organizationReach(organizationId), workspaceId);
  const removed = await removeMembers(store.db, workspace, body, now.toISOString());
  return options.json
    ? formatJson({ removed_count: removed })
    : `removed ${removed} member${removed === 1 ? '' : 's'} from ${workspace.slug}\n`;
}
