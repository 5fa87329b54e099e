import type { ChatMessage, ChatRequest, ContentPart, ReasoningEffort, WebSearchOptions } from '../../protocol/chat.js';
import { offersTier } from '../../protocol/routing-vocabulary.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { upstreamEndUser } from '../shared/hash-end-user.js';

/**
 * OpenAI Chat Completions parameters copied as they are. They are sent when
 * the endpoint lists them, or lists nothing: an endpoint without a list is
 * taken to accept the whole OpenAI API.
 */
const OPENAI_PARAMETERS = [
  'temperature',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'seed',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'prediction',
  'prompt_cache_key',
] as const satisfies readonly (keyof ChatRequest)[];

/**
 * Parameters sent only to an endpoint that names them. OpenAI rejects the
 * sampling extensions that vLLM, Together or Ollama accept; `modalities`
 * works there only for audio models; `metadata` is refused unless `store`
 * is on, and storing conversations at OpenAI is not ours to switch on;
 * `prompt_cache_options` exists only on the newest models.
 */
const LISTED_ONLY_PARAMETERS = [
  'top_k',
  'min_p',
  'top_a',
  'repetition_penalty',
  'modalities',
  'metadata',
  'prompt_cache_options',
] as const satisfies readonly (keyof ChatRequest)[];

/**
 * The Chat Completions body for a canonical request (pure). The body is built
 * from what the upstream understands, so the gateway's own fields (models,
 * provider, plugins, session_id, debug, trace, route, image_config, top-level
 * cache_control, stop_server_tools_when, the client's `user` and stream
 * options) are never sent.
 */
export function convertToOpenAIChatRequest(
  request: ChatRequest,
  target: UpstreamTarget,
  options: { stream: boolean; endUserId?: string },
): Record<string, unknown> {
  const listed = target.supportedParameters;
  const lists = (name: string) => listed?.includes(name) === true;
  const accepts = (name: string) => listed === undefined || lists(name);

  const body: Record<string, unknown> = {
    model: target.upstreamModel,
    messages: request.messages.map(convertMessage),
  };
  const include = (field: string, value: unknown, sent: boolean) => {
    // null means "the upstream's default", the same as leaving the field out.
    if (sent && value !== undefined && value !== null) body[field] = value;
  };

  for (const name of OPENAI_PARAMETERS) include(name, request[name], accepts(name));
  for (const name of LISTED_ONLY_PARAMETERS) include(name, request[name], lists(name));

  // OpenAI's reasoning models refuse max_tokens; hosts that only know max_tokens list only that.
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (accepts('max_completion_tokens')) include('max_completion_tokens', maxTokens, true);
  else include('max_tokens', maxTokens, lists('max_tokens'));

  include('reasoning_effort', reasoningEffort(request), accepts('reasoning_effort') || lists('reasoning'));
  // Only a tier the endpoint offers: elsewhere the field is refused or means something else.
  const tier = request.service_tier === 'fast' ? 'priority' : request.service_tier;
  include('service_tier', tier, tier != null && offersTier(target.supportedServiceTiers, tier));

  // The end user the client named, as the gateway's keyed hash, never the raw value: `user` for
  // compatible hosts, `safety_identifier` for OpenAI, which deprecated `user` in its favour.
  const endUser = upstreamEndUser(request, options.endUserId);
  include('user', endUser, accepts('user'));
  include('safety_identifier', endUser, accepts('safety_identifier'));
  include('web_search_options', openAIWebSearchOptions(request.web_search_options), accepts('web_search_options'));

  if (options.stream) {
    body.stream = true;
    // Billing needs the usage chunk whether or not the client asked for it.
    body.stream_options = { include_usage: true };
  }
  return body;
}

/**
 * OpenAI's `web_search_options` (its search models): the context size, and
 * the location nested under `approximate`. The domain lists and max_uses
 * are Anthropic's; OpenAI's Chat Completions has none.
 */
function openAIWebSearchOptions(options: WebSearchOptions | undefined): Record<string, unknown> | undefined {
  if (!options) return undefined;
  const { type, ...approximate } = options.user_location ?? { type: 'approximate' };
  const location = Object.fromEntries(Object.entries(approximate).filter(([, value]) => value != null));
  return {
    ...(options.search_context_size ? { search_context_size: options.search_context_size } : {}),
    ...(Object.keys(location).length > 0 ? { user_location: { type, approximate: location } } : {}),
  };
}

/**
 * Every canonical effort is one OpenAI publishes (none … xhigh, and max in its
 * current API), so the value goes through unchanged; which model takes which
 * value is the upstream's to say. `reasoning: { enabled: false }` without an
 * effort asks for none; a reasoning token budget has no OpenAI counterpart.
 */
function reasoningEffort(request: ChatRequest): ReasoningEffort | undefined {
  const effort = request.reasoning?.effort ?? request.reasoning_effort;
  if (effort != null) return effort;
  return request.reasoning?.enabled === false ? 'none' : undefined;
}

/**
 * Messages are already in OpenAI's shape, less the canonical additions that
 * OpenAI refuses: `reasoning` and `model` on assistant messages and
 * Anthropic-style `cache_control` on text parts (OpenAI caches prompt
 * prefixes by itself).
 */
function convertMessage(message: ChatMessage): ChatMessage {
  const converted = Array.isArray(message.content)
    ? ({ ...message, content: message.content.map(withoutCacheControl) } as ChatMessage)
    : { ...message };
  if (converted.role === 'assistant') {
    delete converted.reasoning;
    delete converted.model;
  }
  return converted;
}

function withoutCacheControl<Part extends ContentPart>(part: Part): Part {
  if (!('cache_control' in part)) return part;
  const { cache_control: _ignored, ...rest } = part;
  return rest as Part;
}
