import type { UpstreamVideoRequest, VideoRequest } from '../protocol/video-request.js';

/**
 * The request as one provider gets it: routing preferences dropped, and of
 * `provider.options` only the entry of that provider (by its id, else by the
 * reference's slug for its protocol), only the keys its protocol accepts;
 * the reference says unrecognized keys are silently dropped.
 */
export function toUpstreamVideoRequest(
  { provider, ...request }: VideoRequest,
  providerId: string,
  referenceSlug: string,
  allowed: readonly string[],
): UpstreamVideoRequest {
  const options = provider?.options?.[providerId] ?? provider?.options?.[referenceSlug] ?? {};
  return { ...request, passthrough: Object.fromEntries(Object.entries(options).filter(([key]) => allowed.includes(key))) };
}
