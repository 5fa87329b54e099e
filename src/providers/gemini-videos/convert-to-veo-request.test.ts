import { describe, expect, it } from 'vitest';
import type { FrameImage } from '../../protocol/video-request.js';
import { toVeoRequest, veoRefusal } from './convert-to-veo-request.js';

const PNG = 'data:image/png;base64,iVBORw0K';
const JPEG = 'data:image/jpeg;base64,/9j/4AAQ';
const frame = (url: string, frame_type: FrameImage['frame_type']): FrameImage => ({ type: 'image_url', image_url: { url }, frame_type });
const image = (url: string) => ({ type: 'image_url' as const, image_url: { url } });

describe('toVeoRequest', () => {
  it('puts the prompt in the instance and the options in parameters, duration as durationSeconds', () => {
    const request = {
      model: 'google/veo-3.1',
      prompt: 'a cat',
      duration: 6,
      resolution: '1080p',
      aspect_ratio: '9:16',
      seed: 3,
      passthrough: {},
    };
    expect(toVeoRequest(request)).toEqual({
      instances: [{ prompt: 'a cat' }],
      parameters: { aspectRatio: '9:16', resolution: '1080p', durationSeconds: 6 },
    });
  });

  it('reads size as resolution and aspect ratio', () => {
    expect(toVeoRequest({ model: 'm', prompt: 'p', size: '1080x1920', passthrough: {} }).parameters).toEqual({
      resolution: '1080p',
      aspectRatio: '9:16',
    });
    expect(toVeoRequest({ model: 'm', prompt: 'p', size: '1280x720', passthrough: {} }).parameters).toEqual({
      resolution: '720p',
      aspectRatio: '16:9',
    });
  });

  it('sends frames as image and lastFrame, and reference images as assets, in base64 with their type', () => {
    const frames = toVeoRequest({
      model: 'm',
      prompt: 'p',
      frame_images: [frame(JPEG, 'last_frame'), frame(PNG, 'first_frame')],
      passthrough: {},
    });
    expect(frames.instances[0]).toEqual({
      prompt: 'p',
      image: { bytesBase64Encoded: 'iVBORw0K', mimeType: 'image/png' },
      lastFrame: { bytesBase64Encoded: '/9j/4AAQ', mimeType: 'image/jpeg' },
    });
    const audio = { type: 'audio_url' as const, audio_url: { url: 'https://example.com/a.mp3' } };
    const references = toVeoRequest({ model: 'm', prompt: 'p', input_references: [image(PNG), audio, image(JPEG)], passthrough: {} });
    expect(references.instances[0]?.referenceImages).toEqual([
      { image: { bytesBase64Encoded: 'iVBORw0K', mimeType: 'image/png' }, referenceType: 'asset' },
      { image: { bytesBase64Encoded: '/9j/4AAQ', mimeType: 'image/jpeg' }, referenceType: 'asset' },
    ]);
    expect(toVeoRequest({ model: 'm', frame_images: [frame(PNG, 'first_frame')], passthrough: {} }).instances[0]).not.toHaveProperty(
      'prompt',
    );
  });

  it('adds the provider-specific options, which never override the request’s own fields', () => {
    const request = {
      model: 'm',
      prompt: 'p',
      duration: 8,
      passthrough: { negativePrompt: 'rain', personGeneration: 'allow_adult', durationSeconds: 4 },
    };
    expect(toVeoRequest(request).parameters).toEqual({ negativePrompt: 'rain', personGeneration: 'allow_adult', durationSeconds: 8 });
  });
});

describe('veoRefusal', () => {
  it('takes inline PNG and JPEG images only', () => {
    expect(veoRefusal({ model: 'm', frame_images: [frame(PNG, 'first_frame')] }, 'veo-3.1-generate-preview')).toBeUndefined();
    expect(
      veoRefusal({ model: 'm', frame_images: [frame('https://example.com/cat.png', 'first_frame')] }, 'veo-3.1-generate-preview'),
    ).toMatch(/^frame_images\[0\]\.image_url\.url: Veo on the Gemini API takes images inline/);
    expect(
      veoRefusal({ model: 'm', prompt: 'p', input_references: [image('data:image/gif;base64,R0lG')] }, 'veo-3.1-generate-preview'),
    ).toMatch(/^input_references\[0\]\.image_url\.url: /);
  });

  it('needs a first frame for a last one, and no frames with reference images', () => {
    expect(veoRefusal({ model: 'm', frame_images: [frame(PNG, 'last_frame')] }, 'veo-3.1-generate-preview')).toBe(
      'frame_images: Veo takes a last_frame only with a first_frame',
    );
    expect(
      veoRefusal({ model: 'm', frame_images: [frame(PNG, 'first_frame')], input_references: [image(PNG)] }, 'veo-3.1-generate-preview'),
    ).toBe('input_references: Veo takes reference images or frame images, not both');
  });

  it('makes 1080p at 8 seconds only (Veo 3)', () => {
    expect(veoRefusal({ model: 'm', prompt: 'p', resolution: '1080p', duration: 4 }, 'veo-3.1-generate-preview')).toBe(
      'duration: Veo makes 1080p videos of 8 seconds only, not 4',
    );
    expect(veoRefusal({ model: 'm', prompt: 'p', size: '1920x1080', duration: 6 }, 'veo-3.0-generate-001')).toMatch(/^duration: /);
    expect(veoRefusal({ model: 'm', prompt: 'p', resolution: '1080p', duration: 8 }, 'veo-3.1-generate-preview')).toBeUndefined();
    expect(veoRefusal({ model: 'm', prompt: 'p', resolution: '1080p' }, 'veo-3.1-generate-preview')).toBeUndefined();
  });
});
