import type { ModerationAdapter } from '../../protocol/adapters.js';
import { parseOpenAIError } from '../openai/parse-openai-error.js';
import { readUpstreamAnswer } from '../shared/read-upstream-body.js';
import { sendUpstreamRequest } from '../shared/send-upstream-request.js';
import { convertOpenAIModerationResponse } from './convert-openai-moderation-response.js';
import type { OpenAIModerationRequest } from './openai-moderation-api-types.js';

/** OpenAI's moderation API: `POST {base URL}/moderations` with the inputs as a string array, one result per input. */
export const openAIModerationAdapter: ModerationAdapter = {
  kind: 'openai',
  async moderate(inputs, target, context) {
    const body: OpenAIModerationRequest = { model: target.upstreamModel, input: [...inputs] };
    const response = await sendUpstreamRequest({
      url: `${target.baseUrl.replace(/\/+$/, '')}/moderations`,
      headers: { accept: 'application/json', ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}), ...target.headers },
      body,
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: parseOpenAIError,
    });
    return readUpstreamAnswer(response, (json) => convertOpenAIModerationResponse(json, inputs.length), 'moderation results');
  },
};
