import type { BuiltinProvider } from './types.js';
import { perMillion, released } from './units.js';

// Prices as published on docs.x.ai in 2025. Long prompts (over 128K tokens)
// cost more on Grok 4 and Grok 4 Fast.

// Grok reasoning models refuse stop sequences, penalties and reasoning effort.
const REASONING_PARAMETERS = [
  'max_tokens',
  'temperature',
  'top_p',
  'seed',
  'logprobs',
  'top_logprobs',
  'response_format',
  'structured_outputs',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
];

const TEXT = { input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Grok' };
const TEXT_IMAGE = { input_modalities: ['text', 'image'], output_modalities: ['text'], tokenizer: 'Grok' };

export const xai: BuiltinProvider = {
  id: 'xai',
  name: 'xAI',
  kind: 'openai',
  baseUrl: 'https://api.x.ai/v1',
  apiKeyEnv: ['XAI_API_KEY'],
  facts: {
    privacyPolicyUrl: 'https://x.ai/legal/privacy-policy',
    termsOfServiceUrl: 'https://x.ai/legal/terms-of-service',
    statusPageUrl: 'https://status.x.ai',
    headquarters: 'US',
  },
  baseUrlEnv: 'XAI_BASE_URL',
  offerings: [
    {
      model: {
        id: 'x-ai/grok-4',
        name: 'xAI: Grok 4',
        description: "xAI's flagship reasoning model.",
        created: released('2025-07-09'),
        contextLength: 256_000,
        architecture: TEXT_IMAGE,
      },
      upstreamModel: 'grok-4-0709',
      pricing: {
        prompt: perMillion(3),
        completion: perMillion(15),
        input_cache_read: perMillion(0.75),
        overrides: [{ min_prompt_tokens: 128_000, prompt: perMillion(6), completion: perMillion(30) }],
      },
      supportedParameters: REASONING_PARAMETERS,
    },
    {
      model: {
        id: 'x-ai/grok-4-fast',
        name: 'xAI: Grok 4 Fast',
        description: 'Cost-efficient Grok 4 reasoning model with a two-million-token context.',
        created: released('2025-09-19'),
        contextLength: 2_000_000,
        architecture: TEXT_IMAGE,
      },
      upstreamModel: 'grok-4-fast-reasoning',
      pricing: {
        prompt: perMillion(0.2),
        completion: perMillion(0.5),
        input_cache_read: perMillion(0.05),
        overrides: [{ min_prompt_tokens: 128_000, prompt: perMillion(0.4), completion: perMillion(1) }],
      },
      supportedParameters: REASONING_PARAMETERS,
    },
    {
      model: {
        id: 'x-ai/grok-code-fast-1',
        name: 'xAI: Grok Code Fast 1',
        description: 'Fast, cheap reasoning model for agentic coding.',
        created: released('2025-08-28'),
        contextLength: 256_000,
        architecture: TEXT,
      },
      upstreamModel: 'grok-code-fast-1',
      pricing: { prompt: perMillion(0.2), completion: perMillion(1.5), input_cache_read: perMillion(0.02) },
      supportedParameters: [...REASONING_PARAMETERS, 'include_reasoning'],
    },
    {
      model: {
        id: 'x-ai/grok-3-mini',
        name: 'xAI: Grok 3 Mini',
        description: 'Small reasoning model that shows its thinking.',
        created: released('2025-04-09'),
        contextLength: 131_072,
        architecture: TEXT,
      },
      upstreamModel: 'grok-3-mini',
      pricing: { prompt: perMillion(0.3), completion: perMillion(0.5), input_cache_read: perMillion(0.075) },
      supportedParameters: [...REASONING_PARAMETERS, 'reasoning', 'reasoning_effort', 'include_reasoning'],
    },
  ],
};
