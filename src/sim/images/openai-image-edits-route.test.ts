import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../server.js';
import { readJson } from '../test-support.testing.js';
import { SIM_INPUT_IMAGE_TOKENS } from './openai-images-route.js';
import { promptColour, solidPng } from './sim-png.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

const png = solidPng([10, 20, 30]);
const form = (fields: Record<string, string | Blob>) => {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return fetch(`${sim.url}/v1/images/edits`, { method: 'POST', headers: { authorization: 'Bearer sim' }, body });
};

describe('POST /v1/images/edits (OpenAI)', () => {
  it('answers the official client’s images.edit with several images, counting their tokens', async () => {
    const client = new OpenAI({ apiKey: 'sim', baseURL: `${sim.url}/v1` });
    const images = await Promise.all([0, 1].map((i) => toFile(png, `in${i}.png`, { type: 'image/png' })));
    const answer = await client.images.edit({ model: 'gpt-image-1', image: images, prompt: 'a cat', quality: 'low' });
    expect(answer.data?.map((d) => d.b64_json)).toEqual([solidPng(promptColour('a cat', 0)).toString('base64')]);
    expect(answer.usage).toMatchObject({
      input_tokens: 2 + 2 * SIM_INPUT_IMAGE_TOKENS,
      input_tokens_details: { image_tokens: 2 * SIM_INPUT_IMAGE_TOKENS, text_tokens: 2 },
      output_tokens: 272,
    });
  });

  it('streams image_edit events when asked', async () => {
    const client = new OpenAI({ apiKey: 'sim', baseURL: `${sim.url}/v1` });
    const image = await toFile(png, 'in.png', { type: 'image/png' });
    const stream = await client.images.edit({ model: 'gpt-image-1', image, prompt: 'a cat', stream: true, partial_images: 1 });
    const types = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['image_edit.partial_image', 'image_edit.completed']);
  });

  it.each([
    ['no image', { model: 'gpt-image-1', prompt: 'x' }, "Missing required parameter: 'image'."],
    ['no prompt', { model: 'gpt-image-1', image: new Blob([png], { type: 'image/png' }) }, "Missing required parameter: 'prompt'."],
    ['an image that is text', { model: 'gpt-image-1', prompt: 'x', image: 'not a file' }, "Invalid type for 'image'"],
    [
      'a file of another type',
      { model: 'gpt-image-1', prompt: 'x', image: new Blob(['hello'], { type: 'text/plain' }) },
      "unsupported mimetype ('text/plain')",
    ],
    [
      'an edit by DALL·E 3',
      { model: 'dall-e-3', prompt: 'x', image: new Blob([png], { type: 'image/png' }) },
      "Invalid value: 'dall-e-3'.",
    ],
  ])('refuses %s with OpenAI’s 400', async (_, fields, message) => {
    const response = await form(fields);
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain(message);
  });

  it('refuses a body that is not multipart', async () => {
    const response = await fetch(`${sim.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: 'Bearer sim', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toContain('expected multipart/form-data');
  });
});
