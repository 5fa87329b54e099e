import type { EventSourceMessage } from 'eventsource-parser';
import type { ChatCompletionChunk } from '../../protocol/chat.js';
import { httpChatAdapter } from '../shared/http-chat-adapter.js';
import { isRecord } from '../../util/is-record.js';
import { parseStreamEventJson } from '../shared/read-upstream-body.js';
import { excerpt, upstreamBodyLimits } from '../shared/upstream-body-limits.js';
import { UpstreamError } from '../../protocol/upstream.js';
import type { AnthropicMessagesResponse, AnthropicStreamEvent } from './anthropic-messages-api-types.js';
import { convertAnthropicMessagesResponse } from './convert-anthropic-messages-response.js';
import { convertAnthropicStreamEvent, createAnthropicStreamState } from './convert-anthropic-stream-event.js';
import { convertToAnthropicMessagesRequest } from './convert-to-anthropic-messages-request.js';
import { parseAnthropicError } from './parse-anthropic-error.js';

/** The API version the conversions follow; a provider's configured headers may override it. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** The adapter for Anthropic's Messages API (POST /v1/messages). */
export const anthropicChatAdapter = httpChatAdapter({
  kind: 'anthropic',
  path: () => 'messages',
  headers: (target) => ({ 'anthropic-version': ANTHROPIC_VERSION, ...(target.apiKey ? { 'x-api-key': target.apiKey } : {}) }),
  buildRequestBody: convertToAnthropicMessagesRequest,
  parseProviderError: parseAnthropicError,
  responseName: 'a message',
  fromResponseBody: (json) => (isMessage(json) ? convertAnthropicMessagesResponse(json, nowInSeconds()) : undefined),
  readChunks,
});

/** The one shape check the conversion relies on; the rest of the body is read leniently. */
function isMessage(json: unknown): json is AnthropicMessagesResponse {
  return isRecord(json) && Array.isArray(json.content);
}

/** Every event names its type; the conversion reads the rest leniently. */
function isStreamEvent(json: Record<string, unknown>): json is Record<string, unknown> & AnthropicStreamEvent {
  return typeof json.type === 'string';
}

const nowInSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Canonical chunks as the events arrive. An `error` event (Anthropic's
 * overloaded_error mid-stream) rejects with its type as the provider code.
 * message_stop ends the answer; the rest of the body is still read so that
 * the connection goes back to the pool. A body that ends before
 * message_stop was cut off.
 */
async function* readChunks(events: AsyncIterable<EventSourceMessage>): AsyncGenerator<ChatCompletionChunk> {
  const state = createAnthropicStreamState(nowInSeconds());
  for await (const { data } of events) {
    if (state.stopped) continue;
    const event = parseStreamEventJson(data, parseAnthropicError);
    if (!isStreamEvent(event)) throw new UpstreamError('malformed', 'upstream sent a stream event without a type', { body: excerpt(data, upstreamBodyLimits().maxErrorBytes) });
    const chunk = convertAnthropicStreamEvent(event, state);
    if (chunk) yield chunk;
  }
  if (!state.stopped) throw new UpstreamError('connection', 'stream ended before message_stop');
}
