import type { MessagesRequest } from '../../protocol/messages.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';

/** The gateway's own fields of a Messages body (routing, plugins, presets): never Anthropic's to see. */
const GATEWAY_FIELDS = new Set([
  'models',
  'provider',
  'plugins',
  'session_id',
  'route',
  'stop_server_tools_when',
  'preset',
  'debug',
  'trace',
  'user',
  'fallbacks',
]);

/**
 * The client's Messages body as it goes to Anthropic (pure): every field of
 * Anthropic's API as the client sent it (blocks, signatures, cache_control,
 * betas' fields), with the upstream's model name, the stream flag, and the
 * keyed hash of the end user instead of the client's metadata.user_id.
 */
export function convertToNativeMessagesBody(
  body: MessagesRequest,
  target: UpstreamTarget,
  options: { stream: boolean; endUserId?: string },
): Record<string, unknown> {
  const native: Record<string, unknown> = Object.fromEntries(Object.entries(body).filter(([field]) => !GATEWAY_FIELDS.has(field)));
  native.model = target.upstreamModel;
  if (options.stream) native.stream = true;
  else delete native.stream;
  const userId = body.metadata?.user_id;
  if (body.metadata) {
    const { user_id: _, ...rest } = body.metadata;
    native.metadata = userId != null && options.endUserId ? { ...rest, user_id: options.endUserId } : rest;
  }
  return native;
}
