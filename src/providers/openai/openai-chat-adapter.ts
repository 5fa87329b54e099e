import type { ChatCompletionChunk, ChatRequest } from '../../chat/types.js';
import { isRecord } from '../shared/is-record.js';
import { parseJson } from '../shared/parse-json.js';
import { parseStreamEventJson, readUpstreamText, requireEventStream } from '../shared/read-upstream-body.js';
import { readSseEvents } from '../shared/read-sse-events.js';
import { sendUpstreamRequest, type UpstreamResponse } from '../shared/send-upstream-request.js';
import { UpstreamError, type AdapterContext, type ChatAdapter, type UpstreamTarget } from '../types.js';
import { convertOpenAIChatChunk } from './convert-openai-chat-chunk.js';
import { convertOpenAIChatResponse } from './convert-openai-chat-response.js';
import { convertToOpenAIChatRequest } from './convert-to-openai-chat-request.js';
import type { OpenAIChatChunk, OpenAIChatResponse } from './openai-chat-api-types.js';
import { parseOpenAIError } from './parse-openai-error.js';

/** The adapter for OpenAI Chat Completions and the hosts that copy it (Groq, DeepSeek, Mistral, Together, vLLM, Ollama's /v1). */
export const openAIChatAdapter: ChatAdapter = {
  kind: 'openai',

  buildRequestBody: convertToOpenAIChatRequest,

  async complete(request, target, context) {
    const response = await send(request, target, context, false);
    const text = await readUpstreamText(response);
    const json = parseJson(text);
    if (!isChatResponse(json)) {
      throw new UpstreamError('malformed', 'upstream answered without a chat completion', { status: response.statusCode, body: text });
    }
    return convertOpenAIChatResponse(json);
  },

  async stream(request, target, context) {
    const response = await send(request, target, context, true);
    await requireEventStream(response);
    return readChunks(response);
  },
};

function send(request: ChatRequest, target: UpstreamTarget, context: AdapterContext, stream: boolean): Promise<UpstreamResponse> {
  return sendUpstreamRequest({
    url: `${target.baseUrl.replace(/\/+$/, '')}/chat/completions`,
    headers: {
      accept: stream ? 'text/event-stream' : 'application/json',
      ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}),
      ...target.headers,
    },
    body: convertToOpenAIChatRequest(request, target, { stream, endUserId: context.endUserId }),
    timeoutMs: target.timeoutMs,
    context,
    parseProviderError: parseOpenAIError,
  });
}

/** The one shape check the conversion relies on; the rest of the body is read leniently. */
function isChatResponse(json: unknown): json is OpenAIChatResponse {
  return isRecord(json) && Array.isArray(json.choices);
}

/**
 * Canonical chunks as their events arrive, one pulled per body read. The
 * deadline stops at the first event (the first-chunk limit). `[DONE]` ends
 * the chunks; like OpenAI's own SDK, the rest of the body is still read to
 * its end so that the connection goes back to the pool. A body that ends
 * with neither `[DONE]` nor a finish reason was cut off.
 */
async function* readChunks(response: UpstreamResponse): AsyncGenerator<ChatCompletionChunk> {
  let done = false;
  let finished = false;
  try {
    for await (const event of readSseEvents(response.body)) {
      response.stopDeadline();
      if (done) continue;
      if (event.data === '[DONE]') {
        done = true;
        continue;
      }
      const chunk = parseChunk(event.data);
      if (!chunk) continue;
      finished ||= chunk.choices.some((choice) => choice.finish_reason !== null);
      yield chunk;
    }
  } catch (error) {
    throw response.classify(error);
  } finally {
    response.stopDeadline();
    // Releases the socket when the consumer stopped early; a no-op after the body ended.
    response.body.destroy();
  }
  if (!done && !finished) throw new UpstreamError('connection', 'stream ended early');
}

function parseChunk(data: string): ChatCompletionChunk | undefined {
  return convertOpenAIChatChunk(parseStreamEventJson(data, parseOpenAIError) as OpenAIChatChunk);
}
