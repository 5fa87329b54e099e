import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { promptColour, solidPng } from '../../src/sim/images/sim-png.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

const prompt = 'a red panda astronaut floating in space';
const PER_IMAGE = '{ image: 0.04 }';
/** The base64 PNG the simulator renders for the prompt's i-th image. */
const simImage = (i: number) => solidPng(promptColour(prompt, i)).toString('base64');

describe.each(testEngines)('images on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const images = (body: Record<string, unknown>, key = gw.managementKey, path = '/images', headers: Record<string, string> = {}) =>
    call(gw, 'POST', path, { key, body: { prompt, ...body }, headers });
  const simCalls = async () => ((await readSimStats(sim.url)).requests['/v1/images/generations'] as number | undefined) ?? 0;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = taskSimCatalog(sim.url, 'image', [
      { id: 'sim/image', endpoints: [{ provider: 'openai-a', upstream: 'gpt-image-1', pricing: PER_IMAGE }] },
      { id: 'sim/dall-e', endpoints: [{ provider: 'openai-a', upstream: 'dall-e-3', pricing: PER_IMAGE }] },
      {
        id: 'sim/flaky-image',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-image-1@status=503', pricing: PER_IMAGE },
          { provider: 'openai-b', upstream: 'gpt-image-1', pricing: PER_IMAGE },
        ],
      },
      {
        id: 'sim/broken-image',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-image-1@malformed=1', pricing: PER_IMAGE },
          { provider: 'openai-b', upstream: 'gpt-image-1', pricing: PER_IMAGE },
        ],
      },
      {
        id: 'sim/refused-image',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-image-1@status=400', pricing: PER_IMAGE },
          { provider: 'openai-b', upstream: 'gpt-image-1', pricing: PER_IMAGE },
        ],
      },
    ]);
    gw = await startGateway(engine, { catalog, chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  it('POST /images answers the reference’s shape: base64 with its media type, billed per image', async () => {
    const res = await images({ model: 'sim/image', n: 2, aspect_ratio: '16:9', quality: 'low' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^gen-/),
      created: expect.any(Number),
      model: 'sim/image',
      provider: 'openai-a',
      data: [
        { b64_json: simImage(0), media_type: 'image/png' },
        { b64_json: simImage(1), media_type: 'image/png' },
      ],
      usage: { prompt_tokens: 7, completion_tokens: 544, total_tokens: 551, cost: 0.08 },
    });
    // The aspect ratio became the nearest size OpenAI's models make; no response_format for a GPT image model.
    expect((await readSimStats(sim.url)).lastRequestBody).toEqual({
      model: 'gpt-image-1',
      prompt,
      n: 2,
      size: '1536x1024',
      quality: 'low',
    });
  });

  it('POST /images/generations answers OpenAI’s shape, URLs from DALL·E when asked, base64 otherwise', async () => {
    const urls = await images({ model: 'sim/dall-e', response_format: 'url' }, gw.managementKey, '/images/generations');
    expect(urls.status).toBe(200);
    expect(urls.body.data).toEqual([
      { url: expect.stringMatching(/\/v1\/sim-images\/[0-9a-f]{6}\.png$/), revised_prompt: expect.any(String) },
    ]);
    const png = await fetch(urls.body.data[0].url);
    expect(Buffer.from(await png.arrayBuffer()).toString('base64')).toBe(simImage(0));
    const b64 = await images({ model: 'sim/dall-e' }, gw.managementKey, '/images/generations');
    expect(b64.body.data).toEqual([{ b64_json: simImage(0), revised_prompt: expect.any(String) }]);
    expect((await readSimStats(sim.url)).lastRequestBody).toEqual({ model: 'dall-e-3', prompt, response_format: 'b64_json' });
    expect(b64.body.usage.cost).toBe(0.04);
  });

  it('records a ledger row with api_type image and the images made, and charges the key', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'painter', limit: 1 } });
    const res = await images({ model: 'sim/image', n: 3 }, created.body.key);
    const gen = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: created.body.key });
    expect(gen.body.data).toMatchObject({
      id: res.body.id,
      api_type: 'image',
      model: 'sim/image',
      provider_name: 'openai-a',
      status: 'success',
      total_cost: 0.12,
    });
    expect(JSON.parse(JSON.stringify(gen.body.data.routing ?? {}))).toMatchObject({ images: 3 });
    expect((await call(gw, 'GET', '/key', { key: created.body.key })).body.data.usage).toBeCloseTo(0.12, 12);
  });

  describe('fallbacks', () => {
    it('moves to the next endpoint after a 5xx, and the ledger lists both attempts', async () => {
      const res = await images({ model: 'sim/flaky-image' });
      expect(res.status).toBe(200);
      expect(res.body.provider).toBe('openai-b');
      const gen = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: gw.managementKey });
      expect(gen.body.data.provider_responses.map((p: { provider_name: string; status: number }) => [p.provider_name, p.status])).toEqual([
        ['openai-a', 503],
        ['openai-b', 200],
      ]);
    });

    it('moves on after a malformed answer, and stops at a request error', async () => {
      expect((await images({ model: 'sim/broken-image' })).body.provider).toBe('openai-b');
      await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
      expect((await images({ model: 'sim/refused-image' })).status).toBe(400);
      expect(await simCalls()).toBe(1);
    });
  });

  it('refuses with 402 the images the key’s limit cannot cover, before any upstream call', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tiny', limit: 0.1 } });
    const res = await images({ model: 'sim/image', n: 3 }, created.body.key);
    expect(res.status).toBe(402);
    expect(res.body.error.metadata).toEqual({ limit: 'api_key', required_usd: 0.12, available_usd: 0.1 });
    expect(await simCalls()).toBe(0);
  });

  it('lists image models with their parameters, and each model’s endpoints with the price per image', async () => {
    const list = await call(gw, 'GET', '/images/models', { key: gw.managementKey });
    expect(list.body.data.map((m: { id: string }) => m.id)).toEqual([
      'sim/image',
      'sim/dall-e',
      'sim/flaky-image',
      'sim/broken-image',
      'sim/refused-image',
    ]);
    expect(list.body.data[0]).toMatchObject({
      architecture: { output_modalities: ['image'] },
      supported_parameters: { n: { type: 'range', min: 1, max: 10 }, quality: { type: 'enum' } },
      supports_streaming: true,
      endpoints: expect.stringContaining('/images/models/sim/image/endpoints'),
    });
    const endpoints = await call(gw, 'GET', '/images/models/sim/image/endpoints', { key: gw.managementKey });
    expect(endpoints.body.endpoints[0]).toMatchObject({
      provider_slug: 'openai-a',
      pricing: [{ billable: 'output_image', unit: 'image', cost_usd: 0.04 }],
    });
    expect((await call(gw, 'GET', '/images/models/nobody/nothing/endpoints', { key: gw.managementKey })).status).toBe(404);
  });

  it('refuses a chat model here and an image model for chat, naming the right endpoint', async () => {
    expect((await images({ model: 'sim/chat' })).body.error.message).toBe(
      'Model sim/chat is a chat model: send it to POST /chat/completions',
    );
    const chat = await call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { model: 'sim/image', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chat.body.error.message).toBe('Model sim/image is an image model: send it to POST /images');
  });

  it.each([
    ['a missing prompt', { prompt: undefined }, 'prompt is required'],
    ['an empty prompt', { prompt: '' }, 'prompt must be at least 1 character long'],
    ['n of 11', { n: 11 }, 'n must be <= 10'],
    ['an unknown aspect ratio', { aspect_ratio: '7:3' }, 'aspect_ratio must be one of'],
    ['a size that is no size', { size: 'huge' }, 'size must match the pattern'],
    [
      'a reference image that is no image_url part',
      { input_references: [{ type: 'text', text: 'x' }] },
      'input_references[0].image_url is required',
    ],
  ])('refuses %s with a 400 naming the field and rule', async (_, over, message) => {
    const res = await images({ model: 'sim/image', ...over });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
    expect(await simCalls()).toBe(0);
  });
});
