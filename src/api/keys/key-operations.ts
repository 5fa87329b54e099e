import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { Errors } from '../../http/errors.js';
import { parseUtcTimestamp } from '../../http/utc-timestamp.js';
import type { Reach } from '../../store/reach.js';
import { type ApiKeyRow, findApiKey, updateApiKey } from '../../store/repositories/api-keys.js';
import { isMember } from '../../store/repositories/members.js';
import { findDefaultWorkspace, findWorkspace } from '../../store/repositories/workspaces.js';
import type { Database } from '../../store/schema.js';
import { keyInReach, workspaceInReach } from '../../workspaces/management-reach.js';
import type { UpdateKeyBody } from './schemas.js';

// What the keys routes and the command line both do to keys, with the API's rules and messages.

/** The named workspace of the organization, or its default one; a foreign workspace is as absent as a missing one. */
export async function keyWorkspace(db: Kysely<Database>, organizationId: string, workspaceId: string | undefined) {
  if (workspaceId === undefined) {
    const workspace = await findDefaultWorkspace(db, organizationId);
    if (!workspace) throw Errors.internal();
    return workspace;
  }
  const workspace = await findWorkspace(db, organizationId, workspaceId);
  if (!workspace) throw Errors.invalidRequest(`workspace_id ${workspaceId} is not a workspace of this organization`);
  return workspace;
}

/** A new key's `expires_at` as given (or null): in UTC and in the future, normalised to `toISOString()` form. */
export function keyExpiry(value: string | null | undefined, now: Date): string | null {
  const expiresAt = value ? parseUtcTimestamp('expires_at', value) : null;
  if (expiresAt && Date.parse(expiresAt) <= now.getTime()) throw Errors.invalidRequest('expires_at must be in the future');
  return expiresAt;
}

/** A key of a deleted workspace stays disabled: enabling it, or moving it to a live workspace, would bring back what the deletion ended. */
async function refuseDeletedWorkspace(db: Kysely<Database>, key: ApiKeyRow, field: 'disabled' | 'workspace_id'): Promise<void> {
  const workspace = await findWorkspace(db, key.organization_id, key.workspace_id, { includeDeleted: true });
  if (!workspace?.deleted_at) return;
  const refused = field === 'disabled' ? 'cannot be enabled again' : 'cannot move to another workspace';
  throw Errors.invalidRequest(`${field}: this key's workspace ${workspace.id} was deleted; its keys ${refused}`);
}

/**
 * Applies a `PATCH /keys/{hash}` body; the changed key, or undefined when no
 * such key is in reach. `workspace_id` moves the key to another live
 * workspace of the organization, one in reach: a scoped key keeps its keys in
 * its workspace.
 */
export async function updateKey(
  db: Kysely<Database>,
  reach: Reach,
  hash: string,
  body: Static<typeof UpdateKeyBody>,
  now: Date,
): Promise<ApiKeyRow | undefined> {
  const { organizationId } = reach;
  const key = keyInReach(reach, await findApiKey(db, organizationId, hash));
  if (!key) return undefined;
  const workspace =
    body.workspace_id === undefined ? undefined : await keyWorkspace(db, organizationId, workspaceInReach(reach, body.workspace_id));
  if (body.creator_user_id !== undefined && !(await isMember(db, organizationId, body.creator_user_id))) {
    throw Errors.invalidRequest(`creator_user_id ${body.creator_user_id} is not an active member of this organization`);
  }
  if (body.disabled === false) await refuseDeletedWorkspace(db, key, 'disabled');
  if (workspace) await refuseDeletedWorkspace(db, key, 'workspace_id');
  return updateApiKey(db, organizationId, hash, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(workspace ? { workspace_id: workspace.id } : {}),
    ...(body.creator_user_id !== undefined ? { creator_user_id: body.creator_user_id } : {}),
    ...(body.disabled !== undefined ? { disabled: body.disabled ? 1 : 0 } : {}),
    ...(body.expires_at !== undefined ? { expires_at: keyExpiry(body.expires_at, now) } : {}),
    ...(body.include_byok_in_limit !== undefined ? { include_byok_in_limit: body.include_byok_in_limit ? 1 : 0 } : {}),
    ...(body.limit !== undefined ? { limit_usd: body.limit } : {}),
    ...(body.limit_reset !== undefined ? { limit_reset: body.limit_reset } : {}),
    updated_at: now.toISOString(),
  });
}
