import type { ChatRequest } from '../../protocol/chat.js';
import { ChatRequestBody } from './schemas.js';

const KNOWN_FIELDS = new Set(Object.keys(ChatRequestBody.properties));

/** The body without the vendor extras it was allowed to carry: they have no place in the canonical request. */
function knownFields(body: ChatRequestBody): ChatRequestBody {
  return Object.fromEntries(Object.entries(body).filter(([field]) => KNOWN_FIELDS.has(field))) as ChatRequestBody;
}

/**
 * The canonical ChatRequest of a body that passed ChatRequestBody and
 * checkChatRequest: aliases resolved, shorthands folded, null objects dropped,
 * so later stages read each setting from one place.
 *
 * - `reasoning_effort` becomes `reasoning.effort` (checkChatRequest refused a disagreement);
 * - `service_tier: "fast"` becomes its alias target "priority";
 * - `max_completion_tokens` carries the limit, from `max_tokens` when only the
 *   deprecated field was sent; `max_tokens` stays as sent;
 * - `session_id` comes from the body, else from the x-session-id header;
 * - the deprecated `route` is kept as sent;
 * - the server-tool entries of `tools` (`service:…`) move to `server_tools`:
 *   only functions go upstream as `tools`.
 */
export function normalizeChatRequest(body: ChatRequestBody, sessionIdHeader?: string): ChatRequest {
  const {
    reasoning,
    reasoning_effort,
    service_tier,
    max_completion_tokens,
    session_id,
    provider,
    prediction,
    stream_options,
    prompt_cache_options,
    tools,
    ...rest
  } = knownFields(body);
  const request: ChatRequest = rest;
  if (tools) {
    const functions = tools.filter((tool) => tool.type === 'function');
    const server = tools.filter((tool) => tool.type !== 'function');
    if (functions.length > 0 || server.length === 0) request.tools = functions;
    if (server.length > 0) request.server_tools = server;
  }

  const foldedReasoning = reasoning_effort != null && reasoning?.effort == null ? { ...reasoning, effort: reasoning_effort } : reasoning;
  if (foldedReasoning) request.reasoning = foldedReasoning;
  if (service_tier !== undefined) request.service_tier = service_tier === 'fast' ? 'priority' : service_tier;
  const tokenLimit = max_completion_tokens ?? rest.max_tokens;
  if (tokenLimit !== undefined) request.max_completion_tokens = tokenLimit;
  const session = session_id ?? (sessionIdHeader || undefined);
  if (session !== undefined) request.session_id = session;

  // null means "not set" for these objects; the canonical request simply omits them.
  if (provider) request.provider = provider;
  if (prediction) request.prediction = prediction;
  if (stream_options) request.stream_options = stream_options;
  if (prompt_cache_options) request.prompt_cache_options = prompt_cache_options;
  return request;
}
