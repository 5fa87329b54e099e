import type { Attempt } from '../routing/plan-attempts.js';
import type { CachedCredential } from './credential-cache.js';

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
