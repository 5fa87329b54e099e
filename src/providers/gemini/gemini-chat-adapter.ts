import type { EventSourceMessage } from 'eventsource-parser';
import type { ChatCompletionChunk } from '../../protocol/chat.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { isRecord } from '../../util/is-record.js';
import { httpChatAdapter } from '../shared/http-chat-adapter.js';
import { parseStreamEventJson } from '../shared/read-upstream-body.js';
import { convertGeminiResponse } from './convert-gemini-response.js';
import { GeminiStreamConverter } from './convert-gemini-stream-chunk.js';
import { convertToGeminiRequest } from './convert-to-gemini-request.js';
import type { GeminiResponse } from './gemini-api-types.js';
import { parseGeminiError } from './parse-gemini-error.js';

/**
 * The adapter for Google's Gemini API (generativelanguage.googleapis.com
 * /v1beta and hosts that copy it): generateContent, and
 * streamGenerateContent?alt=sse for streams, the key in x-goog-api-key.
 */
export const geminiChatAdapter = httpChatAdapter({
  kind: 'gemini',
  path: (target, stream) => `models/${target.upstreamModel}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
  headers: (target) => ({ ...(target.apiKey ? { 'x-goog-api-key': target.apiKey } : {}) }),
  buildRequestBody: convertToGeminiRequest,
  parseProviderError: parseGeminiError,
  responseName: 'a generateContent response',
  fromResponseBody: (json) => (isGeminiResponse(json) ? convertGeminiResponse(json, nowSeconds()) : undefined),
  readChunks,
});

/** The one shape check the conversion relies on: candidates, or the prompt feedback of a blocked prompt. */
function isGeminiResponse(json: unknown): json is GeminiResponse {
  return isRecord(json) && (Array.isArray(json.candidates) || isRecord(json.promptFeedback));
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Canonical chunks as the events arrive. Gemini's stream has no end marker:
 * the end of the body ends it, and the usage chunk follows. A body that ends
 * before a finish reason was cut off.
 */
async function* readChunks(events: AsyncIterable<EventSourceMessage>): AsyncGenerator<ChatCompletionChunk> {
  const converter = new GeminiStreamConverter(nowSeconds());
  for await (const { data } of events) {
    yield* converter.convert(parseStreamEventJson(data, parseGeminiError) as GeminiResponse);
  }
  if (!converter.finished) throw new UpstreamError('connection', 'stream ended early');
  const usage = converter.usageChunk();
  if (usage) yield usage;
}
