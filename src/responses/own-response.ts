import type { ResponseObject, ResponsesRequest } from '../protocol/responses.js';

/**
 * A Response as the gateway answers it, whoever made it (an upstream's own
 * Responses API, or the translation of a chat answer): the generation's id and
 * the model that served; the fields the reference's Response always has, which
 * an upstream may leave out, as the request set them or null (completed_at,
 * presence_penalty, frequency_penalty); and its usage only once known (the
 * reference has it an object or absent, never null).
 */
export function ownResponse(response: ResponseObject, identity: { id: string; model: string }, request: ResponsesRequest): ResponseObject {
  const { usage, ...rest } = response;
  return {
    completed_at: null,
    presence_penalty: request.presence_penalty ?? null,
    frequency_penalty: request.frequency_penalty ?? null,
    ...rest,
    ...identity,
    ...(usage ? { usage } : {}),
  };
}
