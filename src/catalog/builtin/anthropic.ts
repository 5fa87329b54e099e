import type { BuiltinProvider } from './types.js';
import { perMillion, released } from './units.js';

// Prices as published on anthropic.com/pricing in 2025. Prompt caching: a read
// costs 0.1x the input price, a 5-minute write 1.25x, a 1-hour write 2x.

const PARAMETERS = [
  'max_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop',
  'tools',
  'tool_choice',
  'reasoning',
  'include_reasoning',
  'web_search_options',
  'response_format',
];

/**
 * The models that take structured outputs (`output_config.format`); the
 * others are asked for JSON with a forced tool (see the Anthropic adapter).
 */
const STRUCTURED = [...PARAMETERS, 'structured_outputs'];

/** Priority Tier, asked for with `service_tier: "auto"` (see the Anthropic adapter). */
const SERVICE_TIERS = ['auto', 'default', 'priority'] as const;

const CLAUDE = { input_modalities: ['text', 'image', 'file'], output_modalities: ['text'], tokenizer: 'Claude' };

const cachedPricing = (input: number, output: number) => ({
  prompt: perMillion(input),
  completion: perMillion(output),
  input_cache_read: perMillion(input * 0.1),
  input_cache_write: perMillion(input * 1.25),
  input_cache_write_1h: perMillion(input * 2),
});

export const anthropic: BuiltinProvider = {
  id: 'anthropic',
  name: 'Anthropic',
  kind: 'anthropic',
  baseUrl: 'https://api.anthropic.com/v1',
  apiKeyEnv: ['ANTHROPIC_API_KEY'],
  facts: {
    privacyPolicyUrl: 'https://www.anthropic.com/legal/privacy',
    termsOfServiceUrl: 'https://www.anthropic.com/legal/commercial-terms',
    statusPageUrl: 'https://status.anthropic.com',
    headquarters: 'US',
  },
  baseUrlEnv: 'ANTHROPIC_BASE_URL',
  offerings: [
    {
      model: {
        id: 'anthropic/claude-opus-4.1',
        name: 'Anthropic: Claude Opus 4.1',
        description: "Anthropic's most capable model for complex reasoning, agents and coding.",
        created: released('2025-08-05'),
        contextLength: 200_000,
        architecture: CLAUDE,
      },
      upstreamModel: 'claude-opus-4-1-20250805',
      pricing: cachedPricing(15, 75),
      maxCompletionTokens: 32_000,
      supportedServiceTiers: SERVICE_TIERS,
      supportedParameters: PARAMETERS,
    },
    {
      model: {
        id: 'anthropic/claude-sonnet-4.5',
        name: 'Anthropic: Claude Sonnet 4.5',
        description: 'Balanced Claude model, strongest at coding and long-running agents.',
        created: released('2025-09-29'),
        contextLength: 200_000,
        architecture: CLAUDE,
      },
      upstreamModel: 'claude-sonnet-4-5-20250929',
      pricing: cachedPricing(3, 15),
      maxCompletionTokens: 64_000,
      supportedServiceTiers: SERVICE_TIERS,
      supportedParameters: STRUCTURED,
    },
    {
      model: {
        id: 'anthropic/claude-sonnet-4',
        name: 'Anthropic: Claude Sonnet 4',
        description: 'Balanced Claude 4 model for coding, reasoning and everyday work.',
        created: released('2025-05-22'),
        contextLength: 200_000,
        architecture: CLAUDE,
      },
      upstreamModel: 'claude-sonnet-4-20250514',
      pricing: cachedPricing(3, 15),
      maxCompletionTokens: 64_000,
      supportedServiceTiers: SERVICE_TIERS,
      supportedParameters: PARAMETERS,
    },
    {
      model: {
        id: 'anthropic/claude-haiku-4.5',
        name: 'Anthropic: Claude Haiku 4.5',
        description: 'The fastest Claude model, close to Sonnet 4 at a third of the price.',
        created: released('2025-10-15'),
        contextLength: 200_000,
        architecture: CLAUDE,
      },
      upstreamModel: 'claude-haiku-4-5-20251001',
      pricing: cachedPricing(1, 5),
      maxCompletionTokens: 64_000,
      supportedServiceTiers: SERVICE_TIERS,
      supportedParameters: STRUCTURED,
    },
    {
      model: {
        id: 'anthropic/claude-3.5-haiku',
        name: 'Anthropic: Claude 3.5 Haiku',
        description: 'Fast, low-cost Claude 3.5 model.',
        created: released('2024-10-22'),
        contextLength: 200_000,
        architecture: CLAUDE,
      },
      upstreamModel: 'claude-3-5-haiku-20241022',
      pricing: cachedPricing(0.8, 4),
      maxCompletionTokens: 8_192,
      supportedParameters: PARAMETERS.filter((p) => p !== 'reasoning' && p !== 'include_reasoning'),
    },
  ],
};
