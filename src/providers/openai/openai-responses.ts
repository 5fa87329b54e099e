import type { EventSourceMessage } from 'eventsource-parser';
import type { AdapterContext, NativeResponses } from '../../protocol/adapters.js';
import type { ResponseObject, ResponseStreamEvent, ResponsesRequest } from '../../protocol/responses.js';
import { TERMINAL_RESPONSE_EVENTS } from '../../protocol/responses.js';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { isRecord } from '../../util/is-record.js';
import { parseStreamEventJson, readUpstreamAnswer, requireEventStream } from '../shared/read-upstream-body.js';
import { readUpstreamEvents } from '../shared/read-upstream-events.js';
import { sendUpstreamRequest } from '../shared/send-upstream-request.js';
import { midStreamError } from '../shared/upstream-status-error.js';
import { parseOpenAIError } from './parse-openai-error.js';

/** The request fields of OpenAI's Responses API the gateway passes on; its own (models, provider, plugins…) stay behind. */
const OPENAI_RESPONSES_FIELDS = [
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'text',
  'reasoning',
  'max_output_tokens',
  'max_tool_calls',
  'temperature',
  'top_p',
  'top_logprobs',
  'metadata',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'prompt_cache_options',
  'prompt_cache_retention',
  'include',
  'truncation',
] as const;

const OPENAI_SERVICE_TIERS = new Set(['auto', 'default', 'flex', 'priority', 'scale']);

/**
 * The body sent to the upstream's POST /responses: the client's Responses
 * fields, the upstream's model name, the stream flag, and `store: false`
 * (the gateway keeps no conversation state, so nothing is left upstream to
 * refer to).
 */
export function openAIResponsesBody(body: ResponsesRequest, target: UpstreamTarget, stream: boolean): ResponsesRequest {
  const fields = body as unknown as Record<string, unknown>;
  const picked = Object.fromEntries(
    OPENAI_RESPONSES_FIELDS.filter((field) => fields[field] != null).map((field) => [field, fields[field]]),
  );
  const tier = body.service_tier != null && OPENAI_SERVICE_TIERS.has(body.service_tier) ? { service_tier: body.service_tier } : {};
  return { ...(picked as unknown as ResponsesRequest), ...tier, model: target.upstreamModel, stream, store: false };
}

function send(body: ResponsesRequest, target: UpstreamTarget, context: AdapterContext, stream: boolean) {
  return sendUpstreamRequest({
    url: `${target.baseUrl.replace(/\/+$/, '')}/responses`,
    headers: {
      accept: stream ? 'text/event-stream' : 'application/json',
      ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
      ...target.headers,
    },
    body: openAIResponsesBody(body, target, stream),
    timeoutMs: target.timeoutMs,
    context,
    parseProviderError: parseOpenAIError,
  });
}

const isResponse = (json: unknown): json is ResponseObject => isRecord(json) && json.object === 'response' && Array.isArray(json.output);

/**
 * The typed events of a Responses stream, checked as they pass: each is a
 * JSON object with a `type`; an `error` event or `response.failed` is the
 * upstream failing after its 2xx (an UpstreamError); a stream that ends
 * before its terminal event was cut off.
 */
export async function* readResponseEvents(events: AsyncIterable<EventSourceMessage>): AsyncGenerator<ResponseStreamEvent> {
  let ended = false;
  for await (const { data } of events) {
    // OpenAI sends no sentinel, but hosts that copy the API may end with one.
    if (data === '[DONE]' || ended) continue;
    const json = parseStreamEventJson(data, parseOpenAIError);
    if (typeof json.type !== 'string')
      throw new UpstreamError('malformed', 'upstream sent a Responses event without a type', { body: json });
    if (json.type === 'error') throw midStreamError(json, parseOpenAIError);
    if (json.type === 'response.failed')
      throw midStreamError(json, parseOpenAIError, isRecord(json.response) ? json.response.error : undefined);
    ended = TERMINAL_RESPONSE_EVENTS.has(json.type);
    yield json as ResponseStreamEvent;
  }
  if (!ended) throw new UpstreamError('connection', 'stream ended early');
}

/** OpenAI's Responses API, on the upstreams of kind `openai`. */
export const openAIResponses: NativeResponses = {
  async complete(body, target, context) {
    return readUpstreamAnswer(await send(body, target, context, false), (json) => (isResponse(json) ? json : undefined), 'a response');
  },
  async stream(body, target, context) {
    const response = await send(body, target, context, true);
    await requireEventStream(response);
    return readResponseEvents(readUpstreamEvents(response));
  },
};
