import { describe, expect, it } from 'vitest';
import { convertOpenAIImagesResponse } from './convert-openai-images-response.js';
import { convertToOpenAIImagesRequest } from './convert-to-openai-images-request.js';

const request = { model: 'openai/gpt-image-1', prompt: 'a cat', response_format: 'b64_json' as const };

describe('convertToOpenAIImagesRequest', () => {
  it('sends the prompt and the fields asked, no response_format to a GPT image model', () => {
    expect(
      convertToOpenAIImagesRequest(
        { ...request, n: 2, quality: 'high', background: 'transparent', output_format: 'webp', output_compression: 80 },
        { upstreamModel: 'gpt-image-1' },
      ),
    ).toEqual({
      model: 'gpt-image-1',
      prompt: 'a cat',
      n: 2,
      quality: 'high',
      background: 'transparent',
      output_format: 'webp',
      output_compression: 80,
    });
  });

  it('asks DALL·E for the format wanted, since it answers URLs by default', () => {
    expect(convertToOpenAIImagesRequest({ ...request, style: 'vivid' }, { upstreamModel: 'dall-e-3' })).toEqual({
      model: 'dall-e-3',
      prompt: 'a cat',
      style: 'vivid',
      response_format: 'b64_json',
    });
    expect(convertToOpenAIImagesRequest({ ...request, response_format: 'url' }, { upstreamModel: 'dall-e-2' })).toMatchObject({
      response_format: 'url',
    });
  });

  it.each([
    ['1:1', '1024x1024'],
    ['16:9', '1536x1024'],
    ['3:2', '1536x1024'],
    ['9:16', '1024x1536'],
    ['auto', 'auto'],
  ])('turns aspect ratio %s into size %s; a size asked wins', (aspect_ratio, size) => {
    expect(convertToOpenAIImagesRequest({ ...request, aspect_ratio }, { upstreamModel: 'gpt-image-1' }).size).toBe(size);
    expect(convertToOpenAIImagesRequest({ ...request, aspect_ratio, size: '1024x1024' }, { upstreamModel: 'gpt-image-1' }).size).toBe(
      '1024x1024',
    );
  });

  it('asks for a stream and its partial images only when streaming', () => {
    const streamed = { ...request, partial_images: 2 };
    expect(convertToOpenAIImagesRequest(streamed, { upstreamModel: 'gpt-image-1' })).not.toHaveProperty('partial_images');
    expect(convertToOpenAIImagesRequest(streamed, { upstreamModel: 'gpt-image-1' }, undefined, true)).toMatchObject({
      stream: true,
      partial_images: 2,
    });
  });

  it('sends the end user as the keyed hash only when the client named one', () => {
    expect(convertToOpenAIImagesRequest(request, { upstreamModel: 'gpt-image-1' }, 'h')).not.toHaveProperty('user');
    expect(convertToOpenAIImagesRequest({ ...request, user: 'alice' }, { upstreamModel: 'gpt-image-1' }, 'h')).toMatchObject({ user: 'h' });
  });
});

describe('convertOpenAIImagesResponse', () => {
  it('reads a GPT image answer: base64, format and token usage', () => {
    const body = {
      created: 1700000000,
      data: [{ b64_json: 'iVBO' }],
      output_format: 'png',
      usage: { input_tokens: 5, output_tokens: 272, total_tokens: 277 },
    };
    expect(convertOpenAIImagesResponse(body)).toEqual({
      created: 1700000000,
      images: [{ b64_json: 'iVBO' }],
      outputFormat: 'png',
      usage: { input_tokens: 5, output_tokens: 272 },
    });
  });

  it('reads a DALL·E 3 answer: URLs and revised prompts, no usage', () => {
    expect(convertOpenAIImagesResponse({ created: 1, data: [{ url: 'https://x/a.png', revised_prompt: 'a cat, painted' }] })).toEqual({
      created: 1,
      images: [{ url: 'https://x/a.png', revised_prompt: 'a cat, painted' }],
    });
  });

  it.each([
    ['an error body', { error: { message: 'no' } }],
    ['no images', { data: [] }],
    ['an image with neither bytes nor URL', { data: [{ revised_prompt: 'x' }] }],
  ])('finds no images in %s', (_, body) => {
    expect(convertOpenAIImagesResponse(body)).toBeUndefined();
  });
});
