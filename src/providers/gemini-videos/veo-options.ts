import type { VideoOptions } from '../../protocol/adapters.js';

/** Fields of `provider.options[slug]` that reach Veo's `parameters` as they are (Google's names). */
const PASSTHROUGH = ['negativePrompt', 'personGeneration', 'sampleCount'];

// As Google documents Veo on the Gemini API: 16:9 or 9:16, 8 seconds by default.
const VEO_3: VideoOptions = {
  resolutions: ['720p', '1080p'],
  aspectRatios: ['16:9', '9:16'],
  durations: [4, 6, 8],
  defaultDuration: 8,
  sizes: ['1280x720', '720x1280', '1920x1080', '1080x1920'],
  frameImages: ['first_frame'],
  referenceImages: 0,
  // Veo 3 always makes audio; the Gemini API has no switch for it, nor a seed.
  generateAudio: true,
  seed: false,
  passthrough: PASSTHROUGH,
};

/** Veo 3.1 adds a last frame and up to three reference images ("asset" images). */
const VEO_3_1: VideoOptions = { ...VEO_3, frameImages: ['first_frame', 'last_frame'], referenceImages: 3 };

/** Veo 2: silent 720p videos of 5 to 8 seconds. */
const VEO_2: VideoOptions = {
  ...VEO_3,
  resolutions: ['720p'],
  durations: [5, 6, 7, 8],
  sizes: ['1280x720', '720x1280'],
  generateAudio: false,
};

/** What a Veo model makes, by its Gemini API model id (a simulator model keeps its knobs after `@`). */
export function veoOptions(upstreamModel: string): VideoOptions {
  if (upstreamModel.startsWith('veo-2')) return VEO_2;
  if (upstreamModel.startsWith('veo-3.0')) return VEO_3;
  return VEO_3_1;
}
