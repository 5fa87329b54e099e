import type { EventSourceMessage } from 'eventsource-parser';
import type { ChatAdapter } from '../../protocol/adapters.js';
import type { ChatCompletionChunk } from '../../protocol/chat.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { isRecord } from '../../util/is-record.js';
import { httpChatAdapter } from '../shared/http-chat-adapter.js';
import { parseStreamEventJson } from '../shared/read-upstream-body.js';
import { convertOpenAIChatChunk } from './convert-openai-chat-chunk.js';
import { convertOpenAIChatResponse } from './convert-openai-chat-response.js';
import { convertToOpenAIChatRequest } from './convert-to-openai-chat-request.js';
import type { OpenAIChatChunk, OpenAIChatResponse } from './openai-chat-api-types.js';
import { openAIResponses } from './openai-responses.js';
import { parseOpenAIError } from './parse-openai-error.js';

const chatCompletions = httpChatAdapter({
  kind: 'openai',
  path: () => 'chat/completions',
  headers: (target) => ({ ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}) }),
  buildRequestBody: convertToOpenAIChatRequest,
  parseProviderError: parseOpenAIError,
  responseName: 'a chat completion',
  fromResponseBody: (json) => (isChatResponse(json) ? convertOpenAIChatResponse(json) : undefined),
  readChunks,
});

/**
 * The adapter for OpenAI Chat Completions and the hosts that copy it (Groq,
 * DeepSeek, Mistral, Together, vLLM, Ollama's /v1), and OpenAI's Responses
 * API on the same hosts (a host without it answers 404, and the gateway
 * sends that request as chat instead).
 */
export const openAIChatAdapter: ChatAdapter = { ...chatCompletions, responses: openAIResponses };

/** The one shape check the conversion relies on; the rest of the body is read leniently. */
function isChatResponse(json: unknown): json is OpenAIChatResponse {
  return isRecord(json) && Array.isArray(json.choices);
}

/**
 * Canonical chunks as their events arrive. `[DONE]` ends the chunks; like
 * OpenAI's own SDK, the rest of the body is still read to its end so that
 * the connection goes back to the pool. A body that ends with neither
 * `[DONE]` nor a finish reason was cut off.
 */
async function* readChunks(events: AsyncIterable<EventSourceMessage>): AsyncGenerator<ChatCompletionChunk> {
  let done = false;
  let finished = false;
  for await (const { data } of events) {
    if (done) continue;
    if (data === '[DONE]') {
      done = true;
      continue;
    }
    const chunk = convertOpenAIChatChunk(parseStreamEventJson(data, parseOpenAIError) as OpenAIChatChunk);
    if (!chunk) continue;
    finished ||= chunk.choices.some((choice) => choice.finish_reason !== null);
    yield chunk;
  }
  if (!done && !finished) throw new UpstreamError('connection', 'stream ended early');
}
