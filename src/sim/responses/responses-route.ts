import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatCompletion, ChatCompletionChunk } from '../../protocol/chat.js';
import type { ResponseObject, ResponsesRequest } from '../../protocol/responses.js';
import { ChatChunksToResponseEvents } from '../../responses/convert-chat-chunks-to-response-events.js';
import { convertChatCompletionToResponse, type ItemIds, responseShell } from '../../responses/convert-chat-to-response.js';
import { convertResponsesRequest } from '../../responses/convert-responses-request.js';
import { chatCompletionChunks } from '../chat-chunks.js';
import { chatCompletion } from '../chat-completion.js';
import { admitOpenAIRequest, type SimContext } from '../chat-route.js';
import { deliverJson, deliverStream, type SseFraming, sendError } from '../deliver.js';
import { SimErrors } from '../openai-errors.js';
import { planReply } from '../reply.js';
import { newResponseIdentity } from '../response-identity.js';
import { validateResponsesRequest } from './validate-responses-request.js';

const randomHex = (length: number) => randomUUID().replaceAll('-', '').slice(0, length);
const itemIds: ItemIds = (prefix) => `${prefix}_sim${randomHex(29)}`;

/**
 * OpenAI's Responses SSE: each event named by its type, no `[DONE]`; a
 * failing stream (`fail_mode=error-event`) ends as OpenAI's does (the
 * recorded openai-error stream): an `error` event with the error nested,
 * then `response.failed` with the Response failed, numbered after the last
 * event sent.
 */
function responsesFraming(events: readonly string[], sent: number, shell: ResponseObject): SseFraming {
  const names = events.map((data) => (JSON.parse(data) as { type: string }).type);
  const { message } = SimErrors.serverError().body.error;
  const error = { type: 'error', sequence_number: sent, error: { type: 'server_error', code: 'server_error', message, param: null } };
  const failed = {
    type: 'response.failed',
    sequence_number: sent + 1,
    response: { ...shell, status: 'failed', error: { code: 'server_error', message } },
  };
  return {
    frame: (data, index) => `event: ${names[index]}\ndata: ${data}\n\n`,
    end: '',
    errorEnd: `event: error\ndata: ${JSON.stringify(error)}\n\nevent: response.failed\ndata: ${JSON.stringify(failed)}\n\n`,
  };
}

/**
 * `POST /v1/responses`, OpenAI's Responses API, with the same knobs and in
 * the same order of checks as chat completions. The simulated model answers
 * as it does in chat (planReply: an echo, a JSON sample of a text.format
 * schema, a function call when tools ask for one), laid out as a Response
 * or its typed events.
 */
export async function handleResponses(req: IncomingMessage, res: ServerResponse, context: SimContext): Promise<void> {
  const admitted = await admitOpenAIRequest(req, res, context);
  if (!admitted) return;
  const { body, knobs, signal } = admitted;
  const validation = validateResponsesRequest(body, admitted.model);
  if (!validation.ok) return sendError(res, validation.error);

  const request: ResponsesRequest = validation.request;
  const chat = { ...convertResponsesRequest(request), model: validation.model, stream_options: { include_usage: true } };
  if (request.reasoning?.effort) Object.assign(chat, { reasoning_effort: request.reasoning.effort });
  const reply = planReply(chat, knobs.chunks);
  const identity = newResponseIdentity(validation.model);
  // OpenAI stores a response unless asked not to (store defaults to true), and says so.
  const shell = {
    ...responseShell(request, { id: `resp_sim${randomHex(29)}`, model: validation.model, createdAt: identity.created }),
    store: request.store ?? true,
  };
  if (!request.stream) {
    const completion = chatCompletion(reply, chat, identity, knobs.usage) as ChatCompletion;
    return deliverJson(res, JSON.stringify(convertChatCompletionToResponse(completion, shell, itemIds, identity.created)), knobs, signal);
  }
  const converter = new ChatChunksToResponseEvents(shell, itemIds);
  const chunks = chatCompletionChunks(reply, chat, identity, knobs.usage).map((text) => JSON.parse(text) as ChatCompletionChunk);
  const events = [...converter.start(), ...chunks.flatMap((chunk) => converter.push(chunk)), ...converter.finish(identity.created)].map(
    (event) => JSON.stringify(event),
  );
  return deliverStream(
    res,
    events,
    knobs,
    signal,
    responsesFraming(events, Math.min(knobs.failAfterChunks ?? events.length, events.length), shell),
  );
}
