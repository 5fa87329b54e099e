import type { EventSourceMessage } from 'eventsource-parser';
import type { ChatAdapter } from '../../protocol/adapters.js';
import type { ChatCompletionChunk } from '../../protocol/chat.js';
import { httpChatAdapter } from '../shared/http-chat-adapter.js';
import { anthropicHeaders, isMessage, nowInSeconds } from './anthropic-http.js';
import { anthropicNativeMessages } from './anthropic-native-messages.js';
import { convertAnthropicMessagesResponse } from './convert-anthropic-messages-response.js';
import { convertJsonToolChunks, convertJsonToolCompletion } from './convert-json-tool-answer.js';
import { anthropicJsonOutputMode } from './convert-to-anthropic-json-output.js';
import { convertToAnthropicMessagesRequest } from './convert-to-anthropic-messages-request.js';
import { parseAnthropicError } from './parse-anthropic-error.js';
import { readAnthropicEvents } from './read-anthropic-events.js';

export { ANTHROPIC_VERSION } from './anthropic-http.js';

const translated = httpChatAdapter({
  kind: 'anthropic',
  path: () => 'messages',
  headers: (target) => anthropicHeaders(target, {}),
  buildRequestBody: convertToAnthropicMessagesRequest,
  parseProviderError: parseAnthropicError,
  responseName: 'a message',
  fromResponseBody: (json) => (isMessage(json) ? convertAnthropicMessagesResponse(json, nowInSeconds()) : undefined),
  readChunks,
});

/**
 * The adapter for Anthropic's Messages API (POST /v1/messages): canonical
 * requests translated, and the client's own Messages bodies sent natively
 * (`messages`, for the gateway's POST /messages). An answer asked of the
 * forced JSON tool comes back as the JSON text the client asked for.
 */
export const anthropicChatAdapter: ChatAdapter = {
  ...translated,
  async complete(request, target, context) {
    const completion = await translated.complete(request, target, context);
    return anthropicJsonOutputMode(request, target) === 'tool' ? convertJsonToolCompletion(completion) : completion;
  },
  async stream(request, target, context) {
    const chunks = await translated.stream(request, target, context);
    return anthropicJsonOutputMode(request, target) === 'tool' ? convertJsonToolChunks(chunks) : chunks;
  },
  messages: anthropicNativeMessages,
};

/** Canonical chunks as the events arrive (see readAnthropicEvents). */
async function* readChunks(events: AsyncIterable<EventSourceMessage>): AsyncGenerator<ChatCompletionChunk> {
  for await (const { chunk } of readAnthropicEvents(events, nowInSeconds())) if (chunk) yield chunk;
}
