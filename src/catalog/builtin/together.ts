import { GPT_OSS_120B, LLAMA_3_1_8B, LLAMA_3_3_70B, QWEN_2_5_72B } from './open-weight-models.js';
import type { BuiltinProvider } from './types.js';
import { perMillion } from './units.js';

// Prices as published on together.ai/pricing in 2025 (serverless). "Turbo" models run in FP8.

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
  'response_format',
  'tools',
  'tool_choice',
];

export const together: BuiltinProvider = {
  id: 'together',
  name: 'Together',
  kind: 'openai',
  baseUrl: 'https://api.together.xyz/v1',
  apiKeyEnv: ['TOGETHER_API_KEY'],
  facts: {
    privacyPolicyUrl: 'https://www.together.ai/privacy',
    termsOfServiceUrl: 'https://www.together.ai/terms-of-service',
    statusPageUrl: 'https://status.together.ai',
    headquarters: 'US',
  },
  baseUrlEnv: 'TOGETHER_BASE_URL',
  offerings: [
    {
      model: LLAMA_3_3_70B,
      upstreamModel: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
      pricing: { prompt: perMillion(0.88), completion: perMillion(0.88) },
      supportedParameters: PARAMETERS,
      quantization: 'fp8',
    },
    {
      model: LLAMA_3_1_8B,
      upstreamModel: 'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo',
      pricing: { prompt: perMillion(0.18), completion: perMillion(0.18) },
      supportedParameters: PARAMETERS,
      quantization: 'fp8',
    },
    {
      model: QWEN_2_5_72B,
      upstreamModel: 'Qwen/Qwen2.5-72B-Instruct-Turbo',
      pricing: { prompt: perMillion(1.2), completion: perMillion(1.2) },
      supportedParameters: PARAMETERS,
      quantization: 'fp8',
    },
    {
      model: GPT_OSS_120B,
      upstreamModel: 'openai/gpt-oss-120b',
      pricing: { prompt: perMillion(0.15), completion: perMillion(0.6) },
      supportedParameters: [...PARAMETERS, 'reasoning', 'reasoning_effort', 'include_reasoning'],
    },
  ],
};
