import { describe, expect, it } from 'vitest';
import { fromEditFields, fromGenerationsBody, fromImagesBody, wantsStream } from './to-image-request.js';

describe('fromImagesBody', () => {
  it('keeps the fields an adapter uses, always asking for base64', () => {
    expect(
      fromImagesBody({ model: 'm', prompt: 'p', n: 2, aspect_ratio: '3:2', resolution: '2K', seed: 7, stream: true, quality: 'low' }),
    ).toEqual({
      model: 'm',
      prompt: 'p',
      n: 2,
      aspect_ratio: '3:2',
      quality: 'low',
      response_format: 'b64_json',
    });
  });

  it('takes a pixel size, and a tier size as the resolution it stands for (no OpenAI knob)', () => {
    expect(fromImagesBody({ model: 'm', prompt: 'p', size: '1024x1536' }).size).toBe('1024x1536');
    expect(fromImagesBody({ model: 'm', prompt: 'p', size: '2K' })).not.toHaveProperty('size');
  });

  it('leaves the reference images to be read apart', () => {
    const input_references = [{ type: 'image_url' as const, image_url: { url: 'https://x/a.png' } }];
    expect(fromImagesBody({ model: 'm', prompt: 'p', input_references })).not.toHaveProperty('input_references');
  });
});

describe('fromGenerationsBody', () => {
  it('answers base64 unless URLs are asked for, and keeps the style', () => {
    expect(fromGenerationsBody({ model: 'm', prompt: 'p' }).response_format).toBe('b64_json');
    expect(fromGenerationsBody({ model: 'm', prompt: 'p', response_format: 'url', style: 'natural' })).toMatchObject({
      response_format: 'url',
      style: 'natural',
    });
  });
});

describe('wantsStream', () => {
  it('streams a request that asks to, in base64 only', () => {
    const body = { model: 'm', prompt: 'p', stream: true };
    expect(wantsStream(body, fromGenerationsBody(body))).toBe(true);
    expect(wantsStream({ ...body, stream: false }, fromGenerationsBody(body))).toBe(false);
    expect(wantsStream(body, fromGenerationsBody({ ...body, response_format: 'url' }))).toBe(false);
  });
});

describe('fromEditFields', () => {
  it('keeps the images, mask and input fidelity with the fields, in base64 unless URLs are asked', () => {
    const image = { bytes: Buffer.from('x'), filename: 'image-0.png', contentType: 'image/png' };
    expect(fromEditFields({ model: 'm', prompt: 'p', n: 2, input_fidelity: 'high' }, [image], image)).toEqual({
      model: 'm',
      prompt: 'p',
      n: 2,
      input_fidelity: 'high',
      response_format: 'b64_json',
      images: [image],
      mask: image,
    });
  });
});
