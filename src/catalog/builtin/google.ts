import { VIDEO } from '../defaults.js';
import type { BuiltinOffering, BuiltinProvider } from './types.js';
import { perMillion, released } from './units.js';

// Prices as published on ai.google.dev/gemini-api/docs/pricing in 2025 (paid
// tier, text/image/video input; audio input is priced apart; Veo per second
// of video, with audio where the model makes it).

const PARAMETERS = [
  'max_tokens',
  'temperature',
  'top_p',
  'stop',
  'seed',
  'response_format',
  'structured_outputs',
  'tools',
  'tool_choice',
  'reasoning',
  'include_reasoning',
  'web_search_options',
];

/** A Veo model of the Gemini API, priced per second of video (video jobs, POST /videos). */
const veo = (id: string, name: string, description: string, date: string, upstreamModel: string, perSecond: number): BuiltinOffering => ({
  model: { id, name, description, created: released(date), architecture: VIDEO },
  upstreamModel,
  pricing: { prompt: 0, completion: 0, video_second: perSecond },
});

const GEMINI = { input_modalities: ['text', 'image', 'file', 'audio', 'video'], output_modalities: ['text'], tokenizer: 'Gemini' };

export const google: BuiltinProvider = {
  id: 'google',
  name: 'Google AI Studio',
  kind: 'gemini',
  baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  apiKeyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  facts: {
    privacyPolicyUrl: 'https://policies.google.com/privacy',
    termsOfServiceUrl: 'https://ai.google.dev/gemini-api/terms',
    statusPageUrl: 'https://aistudio.google.com/status',
    headquarters: 'US',
  },
  baseUrlEnv: 'GEMINI_BASE_URL',
  offerings: [
    {
      model: {
        id: 'google/gemini-2.5-pro',
        name: 'Google: Gemini 2.5 Pro',
        description: "Google's most capable thinking model, for coding, math and long-document reasoning.",
        created: released('2025-06-17'),
        contextLength: 1_048_576,
        architecture: GEMINI,
      },
      upstreamModel: 'gemini-2.5-pro',
      pricing: {
        prompt: perMillion(1.25),
        completion: perMillion(10),
        overrides: [{ min_prompt_tokens: 200_000, prompt: perMillion(2.5), completion: perMillion(15) }],
      },
      maxCompletionTokens: 65_536,
      supportedParameters: PARAMETERS,
    },
    {
      model: {
        id: 'google/gemini-2.5-flash',
        name: 'Google: Gemini 2.5 Flash',
        description: 'Fast thinking model with a one-million-token context, for high-volume work.',
        created: released('2025-06-17'),
        contextLength: 1_048_576,
        architecture: GEMINI,
      },
      upstreamModel: 'gemini-2.5-flash',
      pricing: { prompt: perMillion(0.3), completion: perMillion(2.5), audio: perMillion(1) },
      maxCompletionTokens: 65_536,
      supportedParameters: PARAMETERS,
    },
    {
      model: {
        id: 'google/gemini-2.5-flash-lite',
        name: 'Google: Gemini 2.5 Flash-Lite',
        description: 'The cheapest, lowest-latency Gemini 2.5 model.',
        created: released('2025-07-22'),
        contextLength: 1_048_576,
        architecture: GEMINI,
      },
      upstreamModel: 'gemini-2.5-flash-lite',
      pricing: { prompt: perMillion(0.1), completion: perMillion(0.4), audio: perMillion(0.3) },
      maxCompletionTokens: 65_536,
      supportedParameters: PARAMETERS,
    },
    {
      model: {
        id: 'google/gemini-2.0-flash',
        name: 'Google: Gemini 2.0 Flash',
        description: 'Fast multimodal Gemini 2.0 model without thinking.',
        created: released('2025-02-05'),
        contextLength: 1_048_576,
        architecture: GEMINI,
      },
      upstreamModel: 'gemini-2.0-flash',
      pricing: { prompt: perMillion(0.1), completion: perMillion(0.4), audio: perMillion(0.7) },
      maxCompletionTokens: 8_192,
      supportedParameters: PARAMETERS.filter((p) => p !== 'reasoning' && p !== 'include_reasoning'),
    },
    veo(
      'google/veo-3.1',
      'Google: Veo 3.1',
      'Video with sound from text or images: first and last frames, reference images, 720p or 1080p.',
      '2025-10-15',
      'veo-3.1-generate-preview',
      0.4,
    ),
    veo(
      'google/veo-3.1-fast',
      'Google: Veo 3.1 Fast',
      'A faster, cheaper Veo 3.1 with the same inputs.',
      '2025-10-15',
      'veo-3.1-fast-generate-preview',
      0.15,
    ),
    veo(
      'google/veo-3',
      'Google: Veo 3',
      'Video with sound from text or a first frame, 720p or 1080p.',
      '2025-09-09',
      'veo-3.0-generate-001',
      0.4,
    ),
    veo('google/veo-3-fast', 'Google: Veo 3 Fast', 'A faster, cheaper Veo 3.', '2025-09-09', 'veo-3.0-fast-generate-001', 0.15),
    veo(
      'google/veo-2',
      'Google: Veo 2',
      'Silent 720p video of 5 to 8 seconds from text or a first frame.',
      '2025-04-09',
      'veo-2.0-generate-001',
      0.35,
    ),
  ],
};
