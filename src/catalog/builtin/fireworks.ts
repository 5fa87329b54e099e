import { GPT_OSS_120B, LLAMA_3_1_8B, LLAMA_3_3_70B } from './open-weight-models.js';
import type { BuiltinProvider } from './types.js';
import { perMillion } from './units.js';

// Prices as published on fireworks.ai/pricing in 2025 (serverless, by model size).

const PARAMETERS = [
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'repetition_penalty',
  'frequency_penalty',
  'presence_penalty',
  'max_tokens',
  'stop',
  'seed',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'response_format',
  'structured_outputs',
  'tools',
  'tool_choice',
];

export const fireworks: BuiltinProvider = {
  id: 'fireworks',
  name: 'Fireworks',
  kind: 'openai',
  baseUrl: 'https://api.fireworks.ai/inference/v1',
  apiKeyEnv: ['FIREWORKS_API_KEY'],
  facts: {
    privacyPolicyUrl: 'https://fireworks.ai/privacy-policy',
    termsOfServiceUrl: 'https://fireworks.ai/terms-of-service',
    statusPageUrl: 'https://status.fireworks.ai',
    headquarters: 'US',
  },
  baseUrlEnv: 'FIREWORKS_BASE_URL',
  offerings: [
    {
      model: LLAMA_3_3_70B,
      upstreamModel: 'accounts/fireworks/models/llama-v3p3-70b-instruct',
      pricing: { prompt: perMillion(0.9), completion: perMillion(0.9) },
      supportedParameters: PARAMETERS,
    },
    {
      model: LLAMA_3_1_8B,
      upstreamModel: 'accounts/fireworks/models/llama-v3p1-8b-instruct',
      pricing: { prompt: perMillion(0.2), completion: perMillion(0.2) },
      supportedParameters: PARAMETERS,
    },
    {
      model: GPT_OSS_120B,
      upstreamModel: 'accounts/fireworks/models/gpt-oss-120b',
      pricing: { prompt: perMillion(0.15), completion: perMillion(0.6) },
      supportedParameters: [...PARAMETERS, 'reasoning', 'reasoning_effort', 'include_reasoning'],
    },
  ],
};
