import { LLAMA_3_1_8B, LLAMA_3_3_70B, LLAMA_4_SCOUT, QWEN_3_32B } from './open-weight-models.js';
import type { BuiltinProvider } from './types.js';
import { perMillion } from './units.js';

// Prices as published on groq.com/pricing in 2025.

const PARAMETERS = [
  'temperature',
  'top_p',
  'max_tokens',
  'max_completion_tokens',
  'stop',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'response_format',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
];

export const groq: BuiltinProvider = {
  id: 'groq',
  name: 'Groq',
  kind: 'openai',
  baseUrl: 'https://api.groq.com/openai/v1',
  apiKeyEnv: ['GROQ_API_KEY'],
  facts: {
    privacyPolicyUrl: 'https://groq.com/privacy-policy',
    termsOfServiceUrl: 'https://groq.com/terms-of-use',
    statusPageUrl: 'https://groqstatus.com',
    headquarters: 'US',
  },
  baseUrlEnv: 'GROQ_BASE_URL',
  offerings: [
    {
      model: LLAMA_3_3_70B,
      upstreamModel: 'llama-3.3-70b-versatile',
      pricing: { prompt: perMillion(0.59), completion: perMillion(0.79) },
      maxCompletionTokens: 32_768,
      supportedParameters: PARAMETERS,
    },
    {
      model: LLAMA_3_1_8B,
      upstreamModel: 'llama-3.1-8b-instant',
      pricing: { prompt: perMillion(0.05), completion: perMillion(0.08) },
      maxCompletionTokens: 131_072,
      supportedParameters: PARAMETERS,
    },
    {
      model: LLAMA_4_SCOUT,
      upstreamModel: 'meta-llama/llama-4-scout-17b-16e-instruct',
      pricing: { prompt: perMillion(0.11), completion: perMillion(0.34) },
      maxCompletionTokens: 8_192,
      supportedParameters: PARAMETERS,
    },
    {
      model: QWEN_3_32B,
      upstreamModel: 'qwen/qwen3-32b',
      pricing: { prompt: perMillion(0.29), completion: perMillion(0.59) },
      maxCompletionTokens: 40_960,
      supportedParameters: [...PARAMETERS, 'reasoning', 'reasoning_effort', 'include_reasoning'],
    },
  ],
};
