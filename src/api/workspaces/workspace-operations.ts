import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { modelTask } from '../../catalog/model-task.js';
import type { Catalog } from '../../catalog/types.js';
import { Errors } from '../../http/errors.js';
import { ROUTER_MODELS } from '../../routing/routers/route-models.js';
import type { Reach } from '../../store/reach.js';
import {
  addWorkspaceMembers,
  organizationRoles,
  removeWorkspaceMembers,
  workspaceRoleOf,
} from '../../store/repositories/workspace-members.js';
import {
  activeKeyHashes,
  createWorkspace,
  findWorkspace,
  type Workspace,
  type WorkspaceFields,
} from '../../store/repositories/workspaces.js';
import type { Database } from '../../store/schema.js';
import { newUuid } from '../../util/ids.js';
import { reachesWorkspace } from '../../workspaces/management-reach.js';
import type { AddMembersBody, CreateWorkspaceBody, RemoveMembersBody, UpdateWorkspaceBody } from './schemas.js';

// What the workspace routes and the command line both do, with the API's rules and messages.

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The live workspace named by id or slug, of the organization and in the reach; 404 otherwise. */
export async function workspaceOf(db: Kysely<Database>, reach: Reach, idOrSlug: string): Promise<Workspace> {
  const workspace = await findWorkspace(db, reach.organizationId, idOrSlug);
  if (!workspace || !reachesWorkspace(reach, workspace.id)) throw Errors.notFound(`Workspace ${idOrSlug}`);
  return workspace;
}

/** A default model must be one this gateway serves for the task, so that a typo fails here rather than on every request. */
function checkModel(catalog: Catalog, field: string, model: string | null | undefined, task: 'chat' | 'image'): void {
  if (model === null || model === undefined) return;
  if (task === 'chat' && Object.hasOwn(ROUTER_MODELS, model)) return;
  const found = catalog.getModel(model);
  if (!found) throw Errors.invalidRequest(`${field} ${model} is not a model of this gateway`);
  if (modelTask(found) !== task) throw Errors.invalidRequest(`${field} ${model} is not ${task === 'chat' ? 'a text' : 'an image'} model`);
}

/** A create or update body as the columns it sets, checked beyond its schema. */
export function workspaceFields(
  body: Static<typeof CreateWorkspaceBody> | Static<typeof UpdateWorkspaceBody>,
  catalog: Catalog,
  now: string,
): WorkspaceFields {
  // `{id}` is a UUID or a slug: a slug shaped like a UUID could name two workspaces.
  if (body.slug !== undefined && UUID_SHAPE.test(body.slug)) throw Errors.invalidRequest('slug must not have the shape of a UUID');
  checkModel(catalog, 'default_text_model', body.default_text_model, 'chat');
  checkModel(catalog, 'default_image_model', body.default_image_model, 'image');
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  const fields: WorkspaceFields = {
    name: body.name,
    slug: body.slug,
    description: body.description,
    default_text_model: body.default_text_model,
    default_image_model: body.default_image_model,
    default_provider_sort: body.default_provider_sort,
    io_logging_api_key_ids:
      body.io_logging_api_key_ids === undefined ? undefined : body.io_logging_api_key_ids && JSON.stringify(body.io_logging_api_key_ids),
    io_logging_sampling_rate: body.io_logging_sampling_rate,
    is_data_discount_logging_enabled: flag(body.is_data_discount_logging_enabled),
    is_observability_broadcast_enabled: flag(body.is_observability_broadcast_enabled),
    is_observability_io_logging_enabled: flag(body.is_observability_io_logging_enabled),
    updated_at: now,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as WorkspaceFields;
}

/** Creates a workspace in the organization; 409 when its slug is taken. */
export async function newWorkspace(
  db: Kysely<Database>,
  catalog: Catalog,
  organizationId: string,
  createdBy: string | null,
  body: Static<typeof CreateWorkspaceBody>,
  now: string,
): Promise<Workspace> {
  const created = await createWorkspace(db, {
    ...workspaceFields(body, catalog, now),
    id: newUuid(),
    organization_id: organizationId,
    name: body.name,
    slug: body.slug,
    created_by: createdBy,
    created_at: now,
    updated_at: null,
  });
  if (!created) throw Errors.workspaceSlugTaken(body.slug);
  return created;
}

/** The default workspace's members are the organization's: they are changed there. */
function refuseDefault(workspace: Workspace): void {
  if (workspace.is_default === 1) {
    throw Errors.invalidRequest(
      `Workspace ${workspace.slug} is the organization's default workspace, which holds every organization member: add or remove members of the organization instead`,
    );
  }
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** Adds organization members to a workspace (or changes their role there); 400 naming any user who is not a member of the organization. */
export async function addMembers(db: Kysely<Database>, workspace: Workspace, body: Static<typeof AddMembersBody>, now: string) {
  refuseDefault(workspace);
  const userIds = unique(body.user_ids);
  const roles = await organizationRoles(db, workspace.organization_id, userIds);
  const outsiders = userIds.filter((id) => !roles.has(id));
  if (outsiders.length > 0) {
    throw Errors.invalidRequest(
      `user_ids: ${outsiders.join(', ')} ${outsiders.length === 1 ? 'is' : 'are'} not a member of this organization`,
    );
  }
  return addWorkspaceMembers(
    db,
    workspace.id,
    userIds.map((userId) => ({ userId, id: newUuid(), role: body.role ?? workspaceRoleOf(roles.get(userId)!) })),
    now,
  );
}

/** Takes members out of a workspace; 400 while any of them still has active keys there (the reference's rule). */
export async function removeMembers(db: Kysely<Database>, workspace: Workspace, body: Static<typeof RemoveMembersBody>, now: string) {
  refuseDefault(workspace);
  const userIds = unique(body.user_ids);
  const holding = unique((await activeKeyHashes(db, workspace.id, now, userIds)).map((key) => key.creator_user_id!));
  if (holding.length > 0) throw Errors.memberHasActiveKeys(holding.join(', '));
  return removeWorkspaceMembers(db, workspace.id, userIds);
}
