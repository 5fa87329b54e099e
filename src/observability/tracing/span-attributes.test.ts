import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../catalog/types.js';
import type { ChatRun } from '../../chat/run.js';
import type { Attempt } from '../../routing/plan-attempts.js';
import { answerAttributes, attemptAttributes, runAttributes } from './span-attributes.js';

const endpoint = { provider: 'openai', upstreamModel: 'gpt-4o-mini' } as Endpoint;
const attempt = { modelId: 'openai/gpt-4o-mini', endpoint } as Attempt<Endpoint>;
const run = {
  id: 'gen-1',
  task: 'chat',
  request: { model: 'openai/gpt-4o-mini', max_completion_tokens: 100, temperature: 0.2, stream: true, messages: [] },
  routing: { planned: [{ model: 'openai/gpt-4o-mini', provider: 'openai' }] },
} as unknown as ChatRun;
const usage = {
  prompt_tokens: 10,
  completion_tokens: 4,
  total_tokens: 14,
  prompt_tokens_details: { cached_tokens: 6 },
  completion_tokens_details: { reasoning_tokens: 2 },
};

describe('span attributes', () => {
  it("names an attempt a GenAI call of the provider, for the model as the provider names it, with the request's settings", () => {
    expect(attemptAttributes(run, attempt)).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gateway.model': 'openai/gpt-4o-mini',
      'gateway.generation_id': 'gen-1',
      'gen_ai.request.max_tokens': 100,
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.stream': true,
    });
  });

  it("gives the answer its id, finish reason, usage and a stream's first chunk in seconds", () => {
    expect(
      answerAttributes({
        status: 'success',
        streamed: true,
        outcomes: [],
        usage,
        finishReason: 'stop',
        upstreamId: 'chatcmpl-9',
        ttftMs: 250,
      }),
    ).toEqual({
      'gen_ai.response.id': 'chatcmpl-9',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 4,
      'gen_ai.usage.cache_read.input_tokens': 6,
      'gen_ai.usage.reasoning.output_tokens': 2,
      'gen_ai.response.time_to_first_chunk': 0.25,
    });
    expect(answerAttributes({ status: 'error', streamed: false, outcomes: [], ttftMs: null })).toEqual({});
  });

  it("tells the request's span the model asked for, the one that served, by whom, and the cost", () => {
    expect(runAttributes(run, { status: 'success', streamed: false, outcomes: [], attempt, usage }, 0.00002)).toMatchObject({
      'gen_ai.request.model': 'openai/gpt-4o-mini',
      'gen_ai.response.model': 'openai/gpt-4o-mini',
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': 10,
      'gateway.cost_usd': 0.00002,
    });
  });
});
