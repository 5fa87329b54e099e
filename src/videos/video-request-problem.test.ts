import { describe, expect, it } from 'vitest';
import type { VideoOptions } from '../protocol/adapters.js';
import { videoRequestProblem } from './video-request-problem.js';

const options: VideoOptions = {
  resolutions: ['720p', '1080p'],
  aspectRatios: ['16:9', '9:16'],
  durations: [4, 6, 8],
  defaultDuration: 8,
  sizes: ['1280x720'],
  frameImages: ['first_frame'],
  referenceImages: 0,
  generateAudio: false,
  seed: false,
  passthrough: [],
};
const image = (url = 'data:image/png;base64,AA==') => ({ type: 'image_url' as const, image_url: { url } });
const check = (fields: Record<string, unknown>, o: VideoOptions = options) =>
  videoRequestProblem({ model: 'm', prompt: 'p', ...fields }, 'acme/video', o);

describe('videoRequestProblem', () => {
  it('accepts what the model makes, and a seed it cannot honour', () => {
    expect(
      check({ duration: 8, resolution: '1080p', aspect_ratio: '9:16', size: '1280x720', seed: 3, generate_audio: false }),
    ).toBeUndefined();
    expect(check({ prompt: undefined, frame_images: [{ ...image(), frame_type: 'first_frame' }] })).toBeUndefined();
  });

  it('names the field and what is allowed', () => {
    expect(check({ prompt: undefined })).toBe('prompt is required unless frame_images are given');
    expect(check({ duration: 5 })).toBe('duration: acme/video makes 4, 6 or 8 second videos, not 5');
    expect(check({ resolution: '4K' })).toBe('resolution: acme/video makes 720p or 1080p videos, not 4K');
    expect(check({ aspect_ratio: '1:1' })).toBe('aspect_ratio: acme/video makes 16:9 or 9:16 videos, not 1:1');
    expect(check({ size: '640x480' })).toBe('size: acme/video makes 1280x720 videos, not 640x480');
    expect(check({ size: '640x480' }, { ...options, sizes: [] })).toBe('size: acme/video does not take size');
    expect(check({ generate_audio: true })).toBe('generate_audio: acme/video makes videos without audio');
  });

  it('refuses what the gateway does not act on rather than dropping it', () => {
    expect(check({ callback_url: 'https://example.com/hook' })).toBe(
      'callback_url: this gateway sends no webhooks; poll the polling_url instead',
    );
    expect(check({ previous_job_id: 'job-1' })).toBe('previous_job_id: continuing an earlier job is not supported');
    expect(check({ creativity: 1 })).toBe('creativity: for video upscaling models only; acme/video generates videos');
    expect(check({ upscale_factor: 2 })).toBe('upscale_factor: for video upscaling models only; acme/video generates videos');
  });

  it('checks frame images and reference images against the model', () => {
    expect(check({ frame_images: [{ ...image(), frame_type: 'last_frame' }] })).toBe(
      'frame_images[0].frame_type: acme/video takes only first_frame, not last_frame',
    );
    expect(check({ frame_images: [{ ...image(), frame_type: 'first_frame' }] }, { ...options, frameImages: [] })).toBe(
      'frame_images[0].frame_type: acme/video takes no frame images, not first_frame',
    );
    const both = { ...options, frameImages: ['first_frame', 'last_frame'] as const };
    expect(
      check(
        {
          frame_images: [
            { ...image(), frame_type: 'first_frame' },
            { ...image(), frame_type: 'first_frame' },
          ],
        },
        both,
      ),
    ).toBe('frame_images[1]: a second first_frame; give each frame_type once');
    expect(check({ input_references: [image()] })).toBe('input_references: acme/video takes no reference images');
    const three = { ...options, referenceImages: 3 };
    expect(check({ input_references: [image(), image(), image(), image()] }, three)).toBe(
      'input_references: acme/video takes at most 3 reference images, not 4',
    );
    // Audio and video references are for providers that take them: not counted, not refused.
    expect(
      check(
        { input_references: [image(), { type: 'audio_url', audio_url: { url: 'https://a/b.mp3' } }] },
        { ...options, referenceImages: 1 },
      ),
    ).toBeUndefined();
  });
});
