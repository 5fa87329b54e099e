import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../server.js';
import { readJson } from '../test-support.testing.js';
import { promptColour, solidPng } from './sim-png.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

const post = (body: unknown) =>
  fetch(`${sim.url}/v1/images/generations`, {
    method: 'POST',
    headers: { authorization: 'Bearer sim', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('POST /v1/images/generations (OpenAI)', () => {
  it('answers the official client: GPT image models in base64 with token usage', async () => {
    const client = new OpenAI({ apiKey: 'sim', baseURL: `${sim.url}/v1` });
    const answer = await client.images.generate({ model: 'gpt-image-1', prompt: 'a cat', n: 2, quality: 'high' });
    expect(answer.data?.map((d) => d.b64_json)).toEqual([0, 1].map((i) => solidPng(promptColour('a cat', i)).toString('base64')));
    expect(answer.usage).toMatchObject({ input_tokens: 2, output_tokens: 8320 });
  });

  it('answers DALL·E with URLs it serves, and a revised prompt for DALL·E 3', async () => {
    const body = await readJson(await post({ model: 'dall-e-3', prompt: 'a cat' }));
    expect(body.data).toEqual([{ url: expect.stringContaining('/v1/sim-images/'), revised_prompt: 'A simulated rendering of: a cat' }]);
    const png = await fetch(body.data[0].url);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer())).toEqual(solidPng(promptColour('a cat', 0)));
  });

  it.each([
    ['no prompt', { model: 'gpt-image-1' }, "Missing required parameter: 'prompt'."],
    [
      'response_format for a GPT image model',
      { model: 'gpt-image-1', prompt: 'x', response_format: 'url' },
      "Unknown parameter: 'response_format'.",
    ],
    ['two DALL·E 3 images', { model: 'dall-e-3', prompt: 'x', n: 2 }, "Invalid 'n': integer above maximum value"],
    ['a size the model does not make', { model: 'gpt-image-1', prompt: 'x', size: '1792x1024' }, "Invalid value: '1792x1024'."],
  ])('refuses %s with OpenAI’s 400', async (_, request, message) => {
    const response = await post(request);
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain(message);
  });

  it('streams partial images then the completed image with its usage, as the official client iterates them', async () => {
    const client = new OpenAI({ apiKey: 'sim', baseURL: `${sim.url}/v1` });
    const stream = await client.images.generate({ model: 'gpt-image-1', prompt: 'a cat', stream: true, partial_images: 2, quality: 'low' });
    const events = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'image_generation.partial_image',
      'image_generation.partial_image',
      'image_generation.completed',
    ]);
    expect(events.map((e) => (e.type === 'image_generation.partial_image' ? e.partial_image_index : -1))).toEqual([0, 1, -1]);
    expect(events[2]).toMatchObject({
      b64_json: solidPng(promptColour('a cat', 0)).toString('base64'),
      usage: { input_tokens: 2, output_tokens: 272, total_tokens: 274 },
    });
  });

  it('cuts a stream after fail_after events, with an error event when asked', async () => {
    const response = await post({ model: 'gpt-image-1@fail_after=1,fail_mode=error-event', prompt: 'x', stream: true, partial_images: 3 });
    const text = await response.text();
    expect(text.match(/^event: .*/gm)).toEqual(['event: image_generation.partial_image', 'event: error']);
    expect(text).toContain('"type":"error"');
  });

  it.each([
    ['a stream from DALL·E', { model: 'dall-e-3', prompt: 'x', stream: true }, "Invalid value: 'true'."],
    ['four partial images', { model: 'gpt-image-1', prompt: 'x', stream: true, partial_images: 4 }, "Invalid 'partial_images'"],
    ['stream as a string', { model: 'gpt-image-1', prompt: 'x', stream: 'yes' }, "Invalid type for 'stream'"],
  ])('refuses %s with OpenAI’s 400', async (_, request, message) => {
    const response = await post(request);
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain(message);
  });

  it('answers a status knob with OpenAI’s error body', async () => {
    const response = await post({ model: 'gpt-image-1@status=503', prompt: 'x' });
    expect(response.status).toBe(503);
    expect((await readJson(response)).error.type).toBe('server_error');
  });
});
