import type { EventSourceMessage } from 'eventsource-parser';
import type { ChatAdapter } from '../../protocol/adapters.js';
import type { ChatCompletionChunk } from '../../protocol/chat.js';
import { httpChatAdapter } from '../shared/http-chat-adapter.js';
import { anthropicHeaders, isMessage, nowInSeconds } from './anthropic-http.js';
import { anthropicNativeMessages } from './anthropic-native-messages.js';
import { convertAnthropicMessagesResponse } from './convert-anthropic-messages-response.js';
import { convertToAnthropicMessagesRequest } from './convert-to-anthropic-messages-request.js';
import { parseAnthropicError } from './parse-anthropic-error.js';
import { readAnthropicEvents } from './read-anthropic-events.js';

export { ANTHROPIC_VERSION } from './anthropic-http.js';

/**
 * The adapter for Anthropic's Messages API (POST /v1/messages): canonical
 * requests translated, and the client's own Messages bodies sent natively
 * (`messages`, for the gateway's POST /messages).
 */
export const anthropicChatAdapter: ChatAdapter = {
  ...httpChatAdapter({
    kind: 'anthropic',
    path: () => 'messages',
    headers: (target) => anthropicHeaders(target, {}),
    buildRequestBody: convertToAnthropicMessagesRequest,
    parseProviderError: parseAnthropicError,
    responseName: 'a message',
    fromResponseBody: (json) => (isMessage(json) ? convertAnthropicMessagesResponse(json, nowInSeconds()) : undefined),
    readChunks,
  }),
  messages: anthropicNativeMessages,
};

/** Canonical chunks as the events arrive (see readAnthropicEvents). */
async function* readChunks(events: AsyncIterable<EventSourceMessage>): AsyncGenerator<ChatCompletionChunk> {
  for await (const { chunk } of readAnthropicEvents(events, nowInSeconds())) if (chunk) yield chunk;
}
