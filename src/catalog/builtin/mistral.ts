import type { BuiltinProvider } from './types.js';
import { perMillion, released } from './units.js';

// Prices as published on mistral.ai/pricing in 2025. Mistral rejects unknown
// request fields (422), and takes `random_seed` rather than `seed`, so seed is not listed.

const PARAMETERS = [
  'temperature',
  'top_p',
  'max_tokens',
  'stop',
  'frequency_penalty',
  'presence_penalty',
  'response_format',
  'structured_outputs',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
];

const TEXT = { input_modalities: ['text'], output_modalities: ['text'], tokenizer: 'Mistral' };
const TEXT_IMAGE = { input_modalities: ['text', 'image'], output_modalities: ['text'], tokenizer: 'Mistral' };

export const mistral: BuiltinProvider = {
  id: 'mistral',
  name: 'Mistral',
  kind: 'openai',
  baseUrl: 'https://api.mistral.ai/v1',
  apiKeyEnv: ['MISTRAL_API_KEY'],
  facts: {
    privacyPolicyUrl: 'https://mistral.ai/terms#privacy-policy',
    termsOfServiceUrl: 'https://mistral.ai/terms',
    statusPageUrl: 'https://status.mistral.ai',
    headquarters: 'FR',
  },
  baseUrlEnv: 'MISTRAL_BASE_URL',
  offerings: [
    {
      model: {
        id: 'mistralai/mistral-medium-3',
        name: 'Mistral: Mistral Medium 3',
        description: 'Frontier-class multimodal model at medium cost, strong at coding and STEM.',
        created: released('2025-05-07'),
        contextLength: 131_072,
        architecture: TEXT_IMAGE,
      },
      upstreamModel: 'mistral-medium-2505',
      pricing: { prompt: perMillion(0.4), completion: perMillion(2) },
      supportedParameters: PARAMETERS,
    },
    {
      model: {
        id: 'mistralai/mistral-large-2411',
        name: 'Mistral: Mistral Large 2411',
        description: "Mistral's large text model for complex reasoning and function calling.",
        created: released('2024-11-18'),
        contextLength: 131_072,
        architecture: TEXT,
      },
      upstreamModel: 'mistral-large-2411',
      pricing: { prompt: perMillion(2), completion: perMillion(6) },
      supportedParameters: PARAMETERS,
    },
    {
      model: {
        id: 'mistralai/mistral-small-3.2-24b-instruct',
        name: 'Mistral: Mistral Small 3.2 24B',
        description: 'Small open-weight multimodal model, fast and cheap.',
        created: released('2025-06-20'),
        contextLength: 131_072,
        architecture: TEXT_IMAGE,
      },
      upstreamModel: 'mistral-small-2506',
      pricing: { prompt: perMillion(0.1), completion: perMillion(0.3) },
      supportedParameters: PARAMETERS,
    },
    {
      model: {
        id: 'mistralai/codestral-2501',
        name: 'Mistral: Codestral 2501',
        description: 'Code model for completion, fill-in-the-middle and test generation.',
        created: released('2025-01-13'),
        contextLength: 256_000,
        architecture: TEXT,
      },
      upstreamModel: 'codestral-2501',
      pricing: { prompt: perMillion(0.3), completion: perMillion(0.9) },
      supportedParameters: PARAMETERS,
    },
  ],
};
