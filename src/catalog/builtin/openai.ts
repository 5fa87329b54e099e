import { TRANSCRIPTION, VIDEO } from '../defaults.js';
import type { BuiltinOffering, BuiltinProvider } from './types.js';
import { perMillion, released } from './units.js';

// Prices as published on openai.com/api/pricing in 2025 (standard tier).

const CHAT_PARAMETERS = [
  'temperature',
  'top_p',
  'frequency_penalty',
  'presence_penalty',
  'max_tokens',
  'max_completion_tokens',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'seed',
  'response_format',
  'structured_outputs',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
];
// Reasoning models refuse sampling parameters and stop sequences.
const REASONING_PARAMETERS = [
  'max_tokens',
  'max_completion_tokens',
  'seed',
  'response_format',
  'structured_outputs',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'reasoning',
  'reasoning_effort',
];
const GPT_5_PARAMETERS = [...REASONING_PARAMETERS, 'verbosity'];

// Service tiers as OpenAI's flex- and priority-processing pages listed the models in 2025.
const PRIORITY_TIERS = ['auto', 'default', 'priority'] as const;
const FLEX_TIERS = ['auto', 'default', 'flex'] as const;
const FLEX_AND_PRIORITY_TIERS = ['auto', 'default', 'flex', 'priority'] as const;

/**
 * A Sora model of OpenAI's Videos API, priced per second of video (video jobs,
 * POST /videos), with the larger sizes' own rate where OpenAI charges more
 * for them (sora-2-pro at 1792x1024 and 1024x1792, which 1080p asks for).
 */
const sora = (
  id: string,
  name: string,
  description: string,
  upstreamModel: string,
  perSecond: number,
  largeSizes?: number,
): BuiltinOffering => ({
  model: { id, name, description, created: released('2025-10-06'), architecture: VIDEO },
  upstreamModel,
  pricing: {
    prompt: 0,
    completion: 0,
    video_second: perSecond,
    ...(largeSizes !== undefined
      ? { video_second_by_size: { '1792x1024': largeSizes, '1024x1792': largeSizes, '1080p': largeSizes } }
      : {}),
  },
});

/**
 * A gpt-4o transcribe model, billed by token: OpenAI's speech-to-text guide
 * lists json and text as its only formats, and it refuses audio longer than
 * 1,500 s ("…is longer than 1500 seconds which is the maximum for this
 * model"); the diarizing one adds diarized_json and stops at 1,400 s. Input
 * is priced at the audio rate: the text of a prompt is the small rest of it.
 */
const gpt4oTranscribe = (
  id: string,
  name: string,
  upstreamModel: string,
  [input, output]: [number, number],
  facts: { description?: string; released?: string; maxAudioSeconds?: number; responseFormats?: readonly string[] } = {},
): BuiltinOffering => ({
  model: {
    id,
    name,
    description: facts.description ?? 'Speech to text billed by token; json or text.',
    created: released(facts.released ?? '2025-03-20'),
    architecture: TRANSCRIPTION,
  },
  upstreamModel,
  pricing: { prompt: perMillion(input), completion: perMillion(output) },
  maxAudioSeconds: facts.maxAudioSeconds ?? 1_500,
  responseFormats: facts.responseFormats ?? ['json', 'text'],
});

const MULTIMODAL = { input_modalities: ['text', 'image', 'file'], output_modalities: ['text'], tokenizer: 'GPT' };

export const openai: BuiltinProvider = {
  id: 'openai',
  name: 'OpenAI',
  kind: 'openai',
  baseUrl: 'https://api.openai.com/v1',
  apiKeyEnv: ['OPENAI_API_KEY'],
  facts: {
    privacyPolicyUrl: 'https://openai.com/policies/privacy-policy',
    termsOfServiceUrl: 'https://openai.com/policies/terms-of-use',
    statusPageUrl: 'https://status.openai.com',
    headquarters: 'US',
  },
  baseUrlEnv: 'OPENAI_BASE_URL',
  offerings: [
    {
      model: {
        id: 'openai/gpt-5',
        name: 'OpenAI: GPT-5',
        description: "OpenAI's flagship reasoning model for coding, agents and hard multi-step problems.",
        created: released('2025-08-07'),
        contextLength: 400_000,
        architecture: MULTIMODAL,
      },
      upstreamModel: 'gpt-5',
      pricing: { prompt: perMillion(1.25), completion: perMillion(10), input_cache_read: perMillion(0.125) },
      maxCompletionTokens: 128_000,
      supportedServiceTiers: FLEX_AND_PRIORITY_TIERS,
      supportedParameters: GPT_5_PARAMETERS,
    },
    {
      model: {
        id: 'openai/gpt-5-mini',
        name: 'OpenAI: GPT-5 Mini',
        description: 'A faster, cheaper GPT-5 for well-defined tasks.',
        created: released('2025-08-07'),
        contextLength: 400_000,
        architecture: MULTIMODAL,
      },
      upstreamModel: 'gpt-5-mini',
      pricing: { prompt: perMillion(0.25), completion: perMillion(2), input_cache_read: perMillion(0.025) },
      maxCompletionTokens: 128_000,
      supportedServiceTiers: FLEX_AND_PRIORITY_TIERS,
      supportedParameters: GPT_5_PARAMETERS,
    },
    {
      model: {
        id: 'openai/gpt-5-nano',
        name: 'OpenAI: GPT-5 Nano',
        description: 'The smallest, fastest GPT-5, for classification and summarization.',
        created: released('2025-08-07'),
        contextLength: 400_000,
        architecture: MULTIMODAL,
      },
      upstreamModel: 'gpt-5-nano',
      pricing: { prompt: perMillion(0.05), completion: perMillion(0.4), input_cache_read: perMillion(0.005) },
      maxCompletionTokens: 128_000,
      supportedServiceTiers: FLEX_TIERS,
      supportedParameters: GPT_5_PARAMETERS,
    },
    {
      model: {
        id: 'openai/gpt-4.1',
        name: 'OpenAI: GPT-4.1',
        description: 'Non-reasoning flagship with a one-million-token context, strong at coding and instruction following.',
        created: released('2025-04-14'),
        contextLength: 1_047_576,
        architecture: MULTIMODAL,
      },
      upstreamModel: 'gpt-4.1',
      pricing: { prompt: perMillion(2), completion: perMillion(8), input_cache_read: perMillion(0.5) },
      maxCompletionTokens: 32_768,
      supportedServiceTiers: PRIORITY_TIERS,
      supportedParameters: CHAT_PARAMETERS,
    },
    {
      model: {
        id: 'openai/gpt-4.1-mini',
        name: 'OpenAI: GPT-4.1 Mini',
        description: 'A smaller GPT-4.1 with the same one-million-token context.',
        created: released('2025-04-14'),
        contextLength: 1_047_576,
        architecture: MULTIMODAL,
      },
      upstreamModel: 'gpt-4.1-mini',
      pricing: { prompt: perMillion(0.4), completion: perMillion(1.6), input_cache_read: perMillion(0.1) },
      maxCompletionTokens: 32_768,
      supportedServiceTiers: PRIORITY_TIERS,
      supportedParameters: CHAT_PARAMETERS,
    },
    {
      model: {
        id: 'openai/gpt-4.1-nano',
        name: 'OpenAI: GPT-4.1 Nano',
        description: 'The fastest and cheapest GPT-4.1.',
        created: released('2025-04-14'),
        contextLength: 1_047_576,
        architecture: MULTIMODAL,
      },
      upstreamModel: 'gpt-4.1-nano',
      pricing: { prompt: perMillion(0.1), completion: perMillion(0.4), input_cache_read: perMillion(0.025) },
      maxCompletionTokens: 32_768,
      supportedServiceTiers: PRIORITY_TIERS,
      supportedParameters: CHAT_PARAMETERS,
    },
    {
      model: {
        id: 'openai/gpt-4o',
        name: 'OpenAI: GPT-4o',
        description: "OpenAI's multimodal GPT-4-class model, fast and general purpose.",
        created: released('2024-05-13'),
        contextLength: 128_000,
        architecture: MULTIMODAL,
      },
      upstreamModel: 'gpt-4o',
      pricing: { prompt: perMillion(2.5), completion: perMillion(10), input_cache_read: perMillion(1.25) },
      maxCompletionTokens: 16_384,
      supportedServiceTiers: PRIORITY_TIERS,
      supportedParameters: CHAT_PARAMETERS,
    },
    {
      model: {
        id: 'openai/gpt-4o-mini',
        name: 'OpenAI: GPT-4o-mini',
        description: 'A small, cheap GPT-4o for high-volume tasks.',
        created: released('2024-07-18'),
        contextLength: 128_000,
        architecture: MULTIMODAL,
      },
      upstreamModel: 'gpt-4o-mini',
      pricing: { prompt: perMillion(0.15), completion: perMillion(0.6), input_cache_read: perMillion(0.075) },
      maxCompletionTokens: 16_384,
      supportedServiceTiers: PRIORITY_TIERS,
      supportedParameters: CHAT_PARAMETERS,
    },
    {
      model: {
        id: 'openai/o3',
        name: 'OpenAI: o3',
        description: 'A reasoning model for math, science, coding and visual reasoning.',
        created: released('2025-04-16'),
        contextLength: 200_000,
        architecture: MULTIMODAL,
      },
      upstreamModel: 'o3',
      pricing: { prompt: perMillion(2), completion: perMillion(8), input_cache_read: perMillion(0.5) },
      maxCompletionTokens: 100_000,
      supportedServiceTiers: FLEX_AND_PRIORITY_TIERS,
      supportedParameters: REASONING_PARAMETERS,
    },
    {
      model: {
        id: 'openai/o4-mini',
        name: 'OpenAI: o4 Mini',
        description: 'A small, fast reasoning model, strong at math and coding.',
        created: released('2025-04-16'),
        contextLength: 200_000,
        architecture: MULTIMODAL,
      },
      upstreamModel: 'o4-mini',
      pricing: { prompt: perMillion(1.1), completion: perMillion(4.4), input_cache_read: perMillion(0.275) },
      maxCompletionTokens: 100_000,
      supportedServiceTiers: FLEX_AND_PRIORITY_TIERS,
      supportedParameters: REASONING_PARAMETERS,
    },
    sora('openai/sora-2', 'OpenAI: Sora 2', 'Video with synced audio from text or a first frame, 720p, 4 to 12 seconds.', 'sora-2', 0.1),
    sora(
      'openai/sora-2-pro',
      'OpenAI: Sora 2 Pro',
      'Higher-fidelity Sora 2, 720p and larger sizes, 4 to 12 seconds.',
      'sora-2-pro',
      0.3,
      0.5,
    ),
    {
      model: {
        id: 'openai/whisper-1',
        name: 'OpenAI: Whisper',
        description: 'Speech to text by the second, in every format (json, text, srt, verbose_json, vtt).',
        created: released('2023-03-01'),
        architecture: TRANSCRIPTION,
      },
      upstreamModel: 'whisper-1',
      // $0.006 a minute; no limit on the audio's length but the 25 MB upload.
      pricing: { prompt: 0, completion: 0, audio_second: 0.0001 },
    },
    gpt4oTranscribe('openai/gpt-4o-transcribe', 'OpenAI: GPT-4o Transcribe', 'gpt-4o-transcribe', [6, 10]),
    gpt4oTranscribe('openai/gpt-4o-mini-transcribe', 'OpenAI: GPT-4o mini Transcribe', 'gpt-4o-mini-transcribe', [3, 5]),
    gpt4oTranscribe('openai/gpt-4o-transcribe-diarize', 'OpenAI: GPT-4o Transcribe Diarize', 'gpt-4o-transcribe-diarize', [6, 10], {
      description: 'Speech to text with speaker labels (diarized_json), billed by token.',
      released: '2025-10-14',
      maxAudioSeconds: 1_400,
      responseFormats: ['json', 'text', 'diarized_json'],
    }),
  ],
};
