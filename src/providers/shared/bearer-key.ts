import type { UpstreamTarget } from '../../protocol/upstream.js';

/** The `Authorization: Bearer` header most provider APIs take, when the target has a key. */
export const bearerKey = (target: Pick<UpstreamTarget, 'apiKey'>): Record<string, string> =>
  target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {};
