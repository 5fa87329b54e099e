import type { Kysely } from 'kysely';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { insertApiKey } from '../store/repositories/api-keys.js';
import type { Database, LimitReset } from '../store/schema.js';
import { generateApiKey, hashApiKey, maskApiKey } from './api-key-material.js';

export interface NewApiKey {
  organizationId: string;
  workspaceId: string;
  name: string;
  isManagement?: boolean;
  /** A management key's reach: 'workspace' for its workspace only (workspaces/management-reach.ts), null (the default) for the organization. */
  managementScope?: 'workspace' | null;
  limit?: number | null;
  limitReset?: LimitReset | null;
  includeByokInLimit?: boolean;
  creatorUserId?: string | null;
  appId?: number | null;
  externalUser?: string | null;
  expiresAt?: string | null;
  /** The secret to use instead of a generated one (the bootstrap management key). */
  key?: string;
}

/** Stores a new key and returns its record with the secret, which is never stored or shown again. */
export async function createApiKey(db: Kysely<Database>, input: NewApiKey, now: string): Promise<{ key: string; row: ApiKeyRow }> {
  const key = input.key ?? generateApiKey();
  const row = await insertApiKey(db, {
    hash: hashApiKey(key),
    organization_id: input.organizationId,
    workspace_id: input.workspaceId,
    name: input.name,
    label: maskApiKey(key),
    is_management: input.isManagement ? 1 : 0,
    management_scope: input.isManagement ? (input.managementScope ?? null) : null,
    disabled: 0,
    limit_usd: input.limit ?? null,
    limit_reset: input.limitReset ?? null,
    include_byok_in_limit: input.includeByokInLimit ? 1 : 0,
    creator_user_id: input.creatorUserId ?? null,
    app_id: input.appId ?? null,
    external_user: input.externalUser ?? null,
    expires_at: input.expiresAt ?? null,
    created_at: now,
    updated_at: now,
  });
  return { key, row };
}
