import type { EventSourceMessage } from 'eventsource-parser';
import type { AdapterContext, ChatAdapter } from '../../protocol/adapters.js';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest } from '../../protocol/chat.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { readUpstreamAnswer, requireEventStream } from './read-upstream-body.js';
import { readUpstreamEvents } from './read-upstream-events.js';
import { sendUpstreamRequest, type UpstreamResponse } from './send-upstream-request.js';
import type { ProviderErrorParser } from './upstream-status-error.js';

/** One provider's chat protocol: where it is called, the body it takes, how its answers, events and errors read. */
export interface ChatProtocol {
  kind: string;
  /** The path below the target's base URL; a stream may call another method. */
  path(target: UpstreamTarget, stream: boolean): string;
  /** The provider's own headers (credentials, API version); the target's configured headers override them. */
  headers(target: UpstreamTarget): Record<string, string>;
  buildRequestBody: ChatAdapter['buildRequestBody'];
  parseProviderError: ProviderErrorParser;
  /** What a non-streaming answer is, for the 'malformed' error: "upstream answered without {responseName}". */
  responseName: string;
  /** The canonical response, or undefined when the body is not this protocol's answer. */
  fromResponseBody(body: unknown): ChatCompletion | undefined;
  /** The canonical chunks of a stream's events; throws UpstreamError on a bad event or a stream that ends early. */
  readChunks(events: AsyncIterable<EventSourceMessage>): AsyncIterable<ChatCompletionChunk>;
}

/**
 * An adapter for a chat API that takes one JSON POST and answers in one JSON
 * body, or in server-sent events when asked to stream: OpenAI Chat
 * Completions, Anthropic Messages, Gemini generateContent.
 */
export function httpChatAdapter(protocol: ChatProtocol): ChatAdapter {
  function send(request: ChatRequest, target: UpstreamTarget, context: AdapterContext, stream: boolean): Promise<UpstreamResponse> {
    return sendUpstreamRequest({
      url: `${target.baseUrl.replace(/\/+$/, '')}/${protocol.path(target, stream)}`,
      headers: { accept: stream ? 'text/event-stream' : 'application/json', ...protocol.headers(target), ...target.headers },
      body: protocol.buildRequestBody(request, target, { stream, endUserId: context.endUserId }),
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: protocol.parseProviderError,
    });
  }

  return {
    kind: protocol.kind,
    buildRequestBody: protocol.buildRequestBody,

    async complete(request, target, context) {
      const response = await send(request, target, context, false);
      return readUpstreamAnswer(response, protocol.fromResponseBody, protocol.responseName);
    },

    async stream(request, target, context) {
      const response = await send(request, target, context, true);
      await requireEventStream(response);
      return protocol.readChunks(readUpstreamEvents(response));
    },
  };
}
