import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { Errors } from '../../http/errors.js';
import { parseUtcTimestamp } from '../../http/utc-timestamp.js';
import { type ApiKeyRow, updateApiKey } from '../../store/repositories/api-keys.js';
import { isMember } from '../../store/repositories/members.js';
import { findDefaultWorkspace, findWorkspace } from '../../store/repositories/organizations.js';
import type { Database } from '../../store/schema.js';
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

/** Applies a `PATCH /keys/{hash}` body; the changed key, or undefined when the organization has no such key. */
export async function updateKey(
  db: Kysely<Database>,
  organizationId: string,
  hash: string,
  body: Static<typeof UpdateKeyBody>,
  now: Date,
): Promise<ApiKeyRow | undefined> {
  if (body.creator_user_id !== undefined && !(await isMember(db, organizationId, body.creator_user_id))) {
    throw Errors.invalidRequest(`creator_user_id ${body.creator_user_id} is not an active member of this organization`);
  }
  return updateApiKey(db, organizationId, hash, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.creator_user_id !== undefined ? { creator_user_id: body.creator_user_id } : {}),
    ...(body.disabled !== undefined ? { disabled: body.disabled ? 1 : 0 } : {}),
    ...(body.expires_at !== undefined ? { expires_at: keyExpiry(body.expires_at, now) } : {}),
    ...(body.include_byok_in_limit !== undefined ? { include_byok_in_limit: body.include_byok_in_limit ? 1 : 0 } : {}),
    ...(body.limit !== undefined ? { limit_usd: body.limit } : {}),
    ...(body.limit_reset !== undefined ? { limit_reset: body.limit_reset } : {}),
    updated_at: now.toISOString(),
  });
}
