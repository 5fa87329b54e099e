import type { ChatCompletionChunk, ChatRequest } from '../../chat/types.js';
import { isRecord } from '../shared/is-record.js';
import { parseJson } from '../shared/parse-json.js';
import { parseStreamEventJson, readUpstreamText, requireEventStream } from '../shared/read-upstream-body.js';
import { readUpstreamEvents } from '../shared/read-upstream-events.js';
import { sendUpstreamRequest, type UpstreamResponse } from '../shared/send-upstream-request.js';
import { UpstreamError, type AdapterContext, type ChatAdapter, type UpstreamTarget } from '../types.js';
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
export const geminiChatAdapter: ChatAdapter = {
  kind: 'gemini',

  buildRequestBody: convertToGeminiRequest,

  async complete(request, target, context) {
    const response = await send(request, target, context, false);
    const text = await readUpstreamText(response);
    const json = parseJson(text);
    if (!isGeminiResponse(json)) {
      throw new UpstreamError('malformed', 'upstream answered without a generateContent response', { status: response.statusCode, body: text });
    }
    return convertGeminiResponse(json, nowSeconds());
  },

  async stream(request, target, context) {
    const response = await send(request, target, context, true);
    await requireEventStream(response);
    return readChunks(response);
  },
};

function send(request: ChatRequest, target: UpstreamTarget, context: AdapterContext, stream: boolean): Promise<UpstreamResponse> {
  const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return sendUpstreamRequest({
    url: `${target.baseUrl.replace(/\/+$/, '')}/models/${target.upstreamModel}:${method}`,
    headers: {
      accept: stream ? 'text/event-stream' : 'application/json',
      ...(target.apiKey ? { 'x-goog-api-key': target.apiKey } : {}),
      ...target.headers,
    },
    body: convertToGeminiRequest(request, target),
    timeoutMs: target.timeoutMs,
    context,
    parseProviderError: parseGeminiError,
  });
}

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
async function* readChunks(response: UpstreamResponse): AsyncGenerator<ChatCompletionChunk> {
  const converter = new GeminiStreamConverter(nowSeconds());
  for await (const { data } of readUpstreamEvents(response)) {
    yield* converter.convert(parseStreamEventJson(data, parseGeminiError) as GeminiResponse);
  }
  if (!converter.finished) throw new UpstreamError('connection', 'stream ended early');
  const usage = converter.usageChunk();
  if (usage) yield usage;
}
