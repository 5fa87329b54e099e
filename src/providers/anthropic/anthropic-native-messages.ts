import type { NativeMessages, NativeMessagesContext } from '../../protocol/adapters.js';
import type { MessagesRequest, MessagesResponse } from '../../protocol/messages.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { readUpstreamAnswer, requireEventStream } from '../shared/read-upstream-body.js';
import { readUpstreamEvents } from '../shared/read-upstream-events.js';
import { sendUpstreamRequest } from '../shared/send-upstream-request.js';
import { anthropicHeaders, isMessage, nowInSeconds } from './anthropic-http.js';
import { convertAnthropicMessagesResponse } from './convert-anthropic-messages-response.js';
import { convertToNativeMessagesBody } from './convert-to-native-messages-body.js';
import { parseAnthropicError } from './parse-anthropic-error.js';
import { readAnthropicEvents } from './read-anthropic-events.js';

function send(body: MessagesRequest, target: UpstreamTarget, context: NativeMessagesContext, stream: boolean) {
  return sendUpstreamRequest({
    url: `${target.baseUrl.replace(/\/+$/, '')}/messages`,
    headers: { accept: stream ? 'text/event-stream' : 'application/json', ...anthropicHeaders(target, context), ...target.headers },
    body: convertToNativeMessagesBody(body, target, { stream, ...(context.endUserId ? { endUserId: context.endUserId } : {}) }),
    timeoutMs: target.timeoutMs,
    context,
    parseProviderError: parseAnthropicError,
  });
}

/** The client's Messages body to Anthropic untranslated; the answer back as it came, with its canonical reading. */
export const anthropicNativeMessages: NativeMessages = {
  buildRequestBody: convertToNativeMessagesBody,

  async complete(body, target, context) {
    const response = await send(body, target, context, false);
    const message = await readUpstreamAnswer(
      response,
      (json) => (isMessage(json) ? (json as unknown as MessagesResponse) : undefined),
      'a message',
    );
    return {
      message,
      completion: convertAnthropicMessagesResponse(message as Parameters<typeof convertAnthropicMessagesResponse>[0], nowInSeconds()),
    };
  },

  async stream(body, target, context) {
    const response = await send(body, target, context, true);
    await requireEventStream(response);
    return readAnthropicEvents(readUpstreamEvents(response), nowInSeconds());
  },
};
