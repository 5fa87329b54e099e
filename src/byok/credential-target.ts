import type { UpstreamTarget } from '../protocol/upstream.js';

/** The target with a BYOK credential's key in place of the gateway's own, when the call goes out on one. */
export const withCredentialKey = (target: UpstreamTarget, credential: { apiKey: () => string } | undefined): UpstreamTarget =>
  credential ? { ...target, apiKey: credential.apiKey() } : target;
