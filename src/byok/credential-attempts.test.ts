import { describe, expect, it } from 'vitest';
import type { Attempt } from '../routing/plan-attempts.js';
import { type CredentialUser, withCredentials } from './credential-attempts.js';
import type { CachedCredential } from './credential-cache.js';

const user: CredentialUser = { organizationId: 'org', workspaceId: 'ws', keyHash: 'hash', userId: 'user' };
const attempt = (provider: string, modelId = 'm/one'): Attempt<{ provider: string }> => ({ modelId, endpoint: { provider } });
const credential = (id: string, fields: Partial<CachedCredential> = {}): CachedCredential => ({
  id,
  organizationId: 'org',
  workspaceId: 'ws',
  provider: 'alpha',
  sortOrder: 0,
  isFallback: false,
  allowedKeyHashes: null,
  allowedModels: null,
  allowedUserIds: null,
  apiKey: () => `key-${id}`,
  ...fields,
});
const plan = (credentials: CachedCredential[], fallsBack = true, attempts = [attempt('alpha'), attempt('beta')]) =>
  withCredentials(attempts, user, (provider) => credentials.filter((c) => c.provider === provider), fallsBack).map(
    (a) => `${a.endpoint.provider}:${a.credential ? a.credential.apiKey() : 'own'}`,
  );

describe('withCredentials', () => {
  it('tries the credentials first, then the gateway’s own, then the fallback ones', () => {
    expect(plan([credential('a'), credential('f', { isFallback: true }), credential('b')])).toEqual([
      'alpha:key-a',
      'alpha:key-b',
      'alpha:own',
      'alpha:key-f',
      'beta:own',
    ]);
  });

  it('goes without the gateway’s own (and the fallback ones) when the organization forbids falling back', () => {
    expect(plan([credential('a'), credential('f', { isFallback: true })], false)).toEqual(['alpha:key-a', 'beta:own']);
    // With only fallback credentials, the gateway's own comes first still.
    expect(plan([credential('f', { isFallback: true })], false)).toEqual(['alpha:own', 'alpha:key-f', 'beta:own']);
  });

  it('never uses another organization’s or workspace’s credential; an organization-wide one serves every workspace', () => {
    expect(plan([credential('x', { organizationId: 'other' }), credential('y', { workspaceId: 'other-ws' })])).toEqual([
      'alpha:own',
      'beta:own',
    ]);
    expect(plan([credential('o', { workspaceId: null })])).toEqual(['alpha:key-o', 'alpha:own', 'beta:own']);
  });

  it('applies the allowed key, model and user lists', () => {
    const only = (fields: Partial<CachedCredential>) => plan([credential('r', fields)])[0];
    expect(only({ allowedKeyHashes: new Set(['hash']) })).toBe('alpha:key-r');
    expect(only({ allowedKeyHashes: new Set(['other']) })).toBe('alpha:own');
    expect(only({ allowedModels: new Set(['m/one']) })).toBe('alpha:key-r');
    expect(only({ allowedModels: new Set(['m/two']) })).toBe('alpha:own');
    expect(only({ allowedUserIds: new Set(['user']) })).toBe('alpha:key-r');
    expect(only({ allowedUserIds: new Set(['someone']) })).toBe('alpha:own');
  });
});
