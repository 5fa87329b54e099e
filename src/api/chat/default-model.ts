import { Errors } from '../../http/errors.js';
import type { ChatRequest } from '../../protocol/chat.js';

/**
 * A request names its model with `model` (which may be a preset such as
 * `@preset/name`) or with a non-empty `models` list. As in the reference, an
 * omitted model means the account's default model; without one the request is
 * refused. The route passes the default it resolved, or undefined.
 */
export function applyDefaultModel(request: ChatRequest, defaultModel: string | undefined): ChatRequest {
  if (request.model !== undefined || (request.models?.length ?? 0) > 0) return request;
  if (defaultModel === undefined) throw Errors.invalidRequest('model is required');
  return { ...request, model: defaultModel };
}
