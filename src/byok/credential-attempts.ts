import type { Attempt } from '../routing/plan-attempts.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { CachedCredential, CredentialCache } from './credential-cache.js';

/** Who a request is for, as a credential's restrictions read it. */
export interface CredentialUser {
  organizationId: string;
  workspaceId: string;
  keyHash: string;
  /** The member the key was made for, when any. */
  userId: string | null;
}

const allows = (list: ReadonlySet<string> | null, value: string | null) => list === null || (value !== null && list.has(value));

/** Whether the credential may serve this request's attempt at this model: same organization and workspace, and its lists allow it. */
export function mayUse(credential: CachedCredential, user: CredentialUser, modelId: string): boolean {
  return (
    credential.organizationId === user.organizationId &&
    (credential.workspaceId === null || credential.workspaceId === user.workspaceId) &&
    allows(credential.allowedKeyHashes, user.keyHash) &&
    allows(credential.allowedModels, modelId) &&
    allows(credential.allowedUserIds, user.userId)
  );
}

/**
 * The plan with BYOK credentials in it: each attempt whose provider has
 * credentials this request may use becomes their attempts in sort_order,
 * then the gateway's own credential (unless the organization forbids falling
 * back to it), then the fallback credentials (`is_fallback`), which are for
 * when the gateway's own failed. Pure: the credentials come in.
 */
export function withCredentials<E extends { provider: string }>(
  attempts: readonly Attempt<E>[],
  user: CredentialUser,
  credentials: (provider: string) => readonly CachedCredential[],
  fallsBack: boolean,
): Attempt<E>[] {
  return attempts.flatMap((attempt) => {
    const usable = credentials(attempt.endpoint.provider).filter((c) => mayUse(c, user, attempt.modelId));
    if (usable.length === 0) return [attempt];
    const withKey = (c: CachedCredential): Attempt<E> => ({ ...attempt, credential: { id: c.id, apiKey: () => c.apiKey() } });
    const primary = usable.filter((c) => !c.isFallback).map(withKey);
    if (primary.length > 0 && !fallsBack) return primary;
    return [...primary, attempt, ...usable.filter((c) => c.isFallback).map(withKey)];
  });
}

/** A plan's attempts with the BYOK credentials the key may use (withCredentials, as the cache has them); unchanged without a cache. */
export function withKeyCredentials<E extends { provider: string }>(
  byok: CredentialCache | undefined,
  key: Pick<ApiKeyRow, 'organization_id' | 'workspace_id' | 'hash' | 'creator_user_id'>,
  attempts: readonly Attempt<E>[],
): Attempt<E>[] {
  if (!byok) return [...attempts];
  return withCredentials(
    attempts,
    { organizationId: key.organization_id, workspaceId: key.workspace_id, keyHash: key.hash, userId: key.creator_user_id },
    (provider) => byok.forProvider(key.organization_id, provider),
    byok.fallsBack(key.organization_id),
  );
}
