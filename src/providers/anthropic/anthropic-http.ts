import type { UpstreamTarget } from '../../protocol/upstream.js';
import { isRecord } from '../../util/is-record.js';
import type { AnthropicMessagesResponse } from './anthropic-messages-api-types.js';

/** The API version the conversions follow; a provider's configured headers may override it. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic's own headers: the credentials, the API version (the client's, for a native body) and the betas a native body uses. */
export function anthropicHeaders(
  target: UpstreamTarget,
  client: { anthropicVersion?: string; anthropicBeta?: string },
): Record<string, string> {
  return {
    'anthropic-version': client.anthropicVersion ?? ANTHROPIC_VERSION,
    ...(client.anthropicBeta ? { 'anthropic-beta': client.anthropicBeta } : {}),
    ...(target.apiKey ? { 'x-api-key': target.apiKey } : {}),
  };
}

/** The one shape check the conversion relies on; the rest of the body is read leniently. */
export function isMessage(json: unknown): json is AnthropicMessagesResponse {
  return isRecord(json) && Array.isArray(json.content);
}

/** Anthropic sends no creation time: it is when the answer arrived. */
export const nowInSeconds = () => Math.floor(Date.now() / 1000);
