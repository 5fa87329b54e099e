import type { DecisionsAdapter } from '../../protocol/adapters.js';
import { parseOpenAIError } from '../openai/parse-openai-error.js';
import { bearerKey } from '../shared/bearer-key.js';
import { readUpstreamAnswer } from '../shared/read-upstream-body.js';
import { sendUpstreamRequest } from '../shared/send-upstream-request.js';
import { convertDecisionsResponse } from './convert-decisions-response.js';

/**
 * The Decisions API (OpenRouter's alpha shape) spoken by a decision model's
 * host: one JSON POST to `{base URL}/decisions` with the request as the
 * client sent it (the upstream's model in place of the client's, the end
 * user hashed), answered in one JSON body. Errors are OpenAI's envelope.
 */
export const decisionsAdapter: DecisionsAdapter = {
  kind: 'openai',
  async decide(request, target, context) {
    const response = await sendUpstreamRequest({
      url: `${target.baseUrl.replace(/\/+$/, '')}/decisions`,
      headers: { accept: 'application/json', ...bearerKey(target), ...target.headers },
      body: {
        model: target.upstreamModel,
        state: request.state,
        questions: request.questions,
        ...(context.endUserId !== undefined ? { user: context.endUserId } : {}),
      },
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: parseOpenAIError,
    });
    return readUpstreamAnswer(response, (body) => convertDecisionsResponse(body, request), 'decisions');
  },
};
