import type { BuiltinProvider } from './types.js';
import { perMillion, released } from './units.js';

// Prices as published on api-docs.deepseek.com in 2025, from the V3.2-Exp
// release (2025-09-29); both names serve it, with and without thinking.
// A cache hit is the input_cache_read price.

const PRICING = { prompt: perMillion(0.28), completion: perMillion(0.42), input_cache_read: perMillion(0.028) };
const TEXT = { input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'DeepSeek' };

export const deepseek: BuiltinProvider = {
  id: 'deepseek',
  name: 'DeepSeek',
  kind: 'openai',
  baseUrl: 'https://api.deepseek.com/v1',
  apiKeyEnv: ['DEEPSEEK_API_KEY'],
  facts: {
    privacyPolicyUrl: 'https://cdn.deepseek.com/policies/en-US/deepseek-privacy-policy.html',
    termsOfServiceUrl: 'https://cdn.deepseek.com/policies/en-US/deepseek-terms-of-use.html',
    statusPageUrl: 'https://status.deepseek.com',
    headquarters: 'CN',
  },
  baseUrlEnv: 'DEEPSEEK_BASE_URL',
  offerings: [
    {
      model: {
        id: 'deepseek/deepseek-chat',
        name: 'DeepSeek: DeepSeek Chat',
        description: "DeepSeek's current general model (V3.2-Exp as of September 2025) in non-thinking mode.",
        created: released('2025-09-29'),
        contextLength: 128_000,
        architecture: TEXT,
      },
      upstreamModel: 'deepseek-chat',
      pricing: PRICING,
      maxCompletionTokens: 8_192,
      supportedParameters: [
        'temperature',
        'top_p',
        'max_tokens',
        'stop',
        'frequency_penalty',
        'presence_penalty',
        'response_format',
        'tools',
        'tool_choice',
        'logprobs',
        'top_logprobs',
      ],
    },
    {
      model: {
        id: 'deepseek/deepseek-reasoner',
        name: 'DeepSeek: DeepSeek Reasoner',
        description: "DeepSeek's current general model (V3.2-Exp as of September 2025) in thinking mode.",
        created: released('2025-09-29'),
        contextLength: 128_000,
        architecture: TEXT,
      },
      upstreamModel: 'deepseek-reasoner',
      pricing: PRICING,
      maxCompletionTokens: 65_536,
      // Sampling parameters are accepted but ignored in thinking mode.
      supportedParameters: ['max_tokens', 'stop', 'response_format', 'reasoning', 'include_reasoning'],
    },
  ],
};
