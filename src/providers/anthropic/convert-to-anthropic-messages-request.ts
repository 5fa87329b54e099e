import type { CacheControl, ChatRequest } from '../../protocol/chat.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { upstreamEndUser } from '../shared/hash-end-user.js';
import type { AnthropicMessage, AnthropicMessagesRequest } from './anthropic-messages-api-types.js';
import { anthropicJsonOutputMode, convertToAnthropicJsonOutput } from './convert-to-anthropic-json-output.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { convertToAnthropicServiceTier } from './convert-to-anthropic-service-tier.js';
import { convertToAnthropicThinking } from './convert-to-anthropic-thinking.js';
import { convertToAnthropicTools } from './convert-to-anthropic-tools.js';
import { convertToAnthropicWebSearchTool } from './convert-to-anthropic-web-search-tool.js';

/** Anthropic requires max_tokens; this is the limit when neither the request nor the catalog gives one. */
export const DEFAULT_MAX_TOKENS = 4096;

/** Anthropic's temperature goes up to 1, the canonical one up to 2. */
const MAX_TEMPERATURE = 1;
/** While thinking, Anthropic takes no temperature or top_k, and top_p only from 0.95 up. */
const MIN_TOP_P_WHILE_THINKING = 0.95;

/**
 * The Messages API body for a canonical request (pure). max_tokens is
 * max_completion_tokens, else max_tokens, else the endpoint's own limit.
 * Sampling, stop, tool and reasoning parameters are sent when the endpoint
 * lists them (or lists nothing). Thinking is off when the tool choice forces
 * a tool, and in a tool loop (see continuesToolLoop), which Anthropic
 * refuses with thinking on. A top-level cache_control marks the
 * last block of the prompt. The keyed hash of the end user the client named
 * (`user`) goes in metadata.user_id, the service tier as Anthropic names it. A JSON
 * response_format is structured outputs or the forced JSON tool (see
 * anthropicJsonOutputMode). What Anthropic has no counterpart for (penalties,
 * seed, logprobs, the other response formats, the client's metadata) is not sent.
 */
export function convertToAnthropicMessagesRequest(
  request: ChatRequest,
  target: UpstreamTarget,
  options: { stream: boolean; endUserId?: string },
): AnthropicMessagesRequest {
  const accepts = (name: string) => target.supportedParameters?.includes(name) ?? true;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens ?? target.maxCompletionTokens ?? DEFAULT_MAX_TOKENS;
  const { system, messages } = convertToAnthropicMessages(request.messages);

  const body: AnthropicMessagesRequest = {
    model: target.upstreamModel,
    max_tokens: maxTokens,
    ...(system.length > 0 ? { system } : {}),
    messages,
  };
  if (accepts('tools')) {
    Object.assign(
      body,
      convertToAnthropicTools(request.tools, accepts('tool_choice') ? request.tool_choice : undefined, request.parallel_tool_calls),
    );
  }
  if (request.web_search_options && accepts('web_search_options'))
    body.tools = [...(body.tools ?? []), convertToAnthropicWebSearchTool(request.web_search_options)];
  const jsonMode = anthropicJsonOutputMode(request, target);
  if (jsonMode) Object.assign(body, convertToAnthropicJsonOutput(request.response_format, jsonMode, body));
  const forcesTool = body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool';
  const thinking =
    accepts('reasoning') && !forcesTool && !continuesToolLoop(messages) ? convertToAnthropicThinking(request, maxTokens) : undefined;
  if (thinking) body.thinking = thinking;

  const { temperature, top_p: topP, top_k: topK } = request;
  if (temperature != null && accepts('temperature') && !thinking) body.temperature = Math.min(temperature, MAX_TEMPERATURE);
  if (topP != null && accepts('top_p') && (!thinking || topP >= MIN_TOP_P_WHILE_THINKING)) body.top_p = topP;
  if (topK != null && accepts('top_k') && !thinking) body.top_k = topK;
  const stops = (typeof request.stop === 'string' ? [request.stop] : (request.stop ?? [])).filter((stop) => stop !== '');
  if (stops.length > 0 && accepts('stop')) body.stop_sequences = stops;

  if (request.cache_control) markLastBlock(body, request.cache_control);
  const endUser = upstreamEndUser(request, options.endUserId);
  if (endUser) body.metadata = { user_id: endUser };
  const serviceTier = convertToAnthropicServiceTier(request.service_tier, target.supportedServiceTiers);
  if (serviceTier) body.service_tier = serviceTier;
  if (options.stream) body.stream = true;
  return body;
}

/**
 * With thinking on, Anthropic wants the last assistant turn of a tool loop
 * to start with the signed thinking block it was answered with, and the
 * canonical history does not keep signatures: that turn is answered
 * without thinking, as Anthropic's error message itself advises.
 */
function continuesToolLoop(messages: readonly AnthropicMessage[]): boolean {
  return messages.findLast((message) => message.role === 'assistant')?.content.some((block) => block.type === 'tool_use') ?? false;
}

/**
 * A top-level cache_control (spec 2.1) is a breakpoint on the last cacheable
 * block, in Anthropic's prompt order: tools, system, messages. Every block
 * this adapter builds can carry one (it never sends thinking blocks), so it
 * is the very last block; one that already has a breakpoint keeps its own.
 */
function markLastBlock(body: AnthropicMessagesRequest, cacheControl: CacheControl): void {
  const last = body.messages.at(-1)?.content.at(-1) ?? body.system?.at(-1) ?? body.tools?.at(-1);
  if (last) last.cache_control ??= cacheControl;
}
