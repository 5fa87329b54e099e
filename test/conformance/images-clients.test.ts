import { OpenRouter } from '@openrouter/sdk';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promptColour, solidPng } from '../../src/sim/images/sim-png.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

const prompt = 'a lighthouse at dusk';
const simImage = (i: number) => solidPng(promptColour(prompt, i)).toString('base64');
/** `sim/image` answers from its one endpoint; `sim/flaky-image`'s first endpoint answers 503, so its second serves. */
const MODELS = [
  ['sim/image', 'openai-a'],
  ['sim/flaky-image', 'openai-b'],
] as const;

/** The real clients' image calls against gateway + simulator, unchanged but for base URL and key. */
describe.each(testEngines)('images through the real clients on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = taskSimCatalog(sim.url, 'image', [
      { id: 'sim/image', endpoints: [{ provider: 'openai-a', upstream: 'gpt-image-1', pricing: '{ image: 0.04 }' }] },
      {
        id: 'sim/flaky-image',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-image-1@status=503', pricing: '{ image: 0.04 }' },
          { provider: 'openai-b', upstream: 'gpt-image-1', pricing: '{ image: 0.04 }' },
        ],
      },
      { id: 'sim/dall-e', endpoints: [{ provider: 'openai-a', upstream: 'dall-e-2', pricing: '{ image: 0.02 }' }] },
    ]);
    gw = await startGateway(engine, { catalog, chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const servedBy = async (id: string) => (await call(gw, 'GET', `/generation?id=${id}`, { key: gw.managementKey })).body.data.provider_name;

  describe.each(MODELS)('%s', (model, provider) => {
    it('openai: images.generate (POST /images/generations), base64', async () => {
      const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
      const answer = await openai.images.generate({ model, prompt, n: 2, size: '1024x1024', quality: 'low' });
      expect(answer.data?.map((d) => d.b64_json)).toEqual([simImage(0), simImage(1)]);
      expect(answer.usage?.output_tokens).toBe(544);
      expect(await servedBy((answer as unknown as { id: string }).id)).toBe(provider);
    });

    it('openai: images.generate streamed, with partial images and the cost in the completed event', async () => {
      const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
      const { data: stream, response } = await openai.images
        .generate({ model, prompt, stream: true, partial_images: 2, quality: 'low' })
        .withResponse();
      const events = [];
      for await (const event of stream) events.push(event);
      expect(events.map((e) => e.type)).toEqual([
        'image_generation.partial_image',
        'image_generation.partial_image',
        'image_generation.completed',
      ]);
      const completed = events[2] as OpenAI.Images.ImageGenCompletedEvent;
      expect(completed.b64_json).toBe(simImage(0));
      expect(completed.usage).toMatchObject({ output_tokens: 272, cost: 0.04 });
      // A stream's events carry no id: the generation's is a header.
      expect(await servedBy(response.headers.get('x-generation-id')!)).toBe(provider);
    });

    it('openai: images.edit with a file (POST /images/edits), whole and streamed', async () => {
      const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
      const image = await toFile(solidPng([1, 2, 3]), 'in.png', { type: 'image/png' });
      const answer = await openai.images.edit({ model, image, prompt, quality: 'low' });
      expect(answer.data?.map((d) => d.b64_json)).toEqual([simImage(0)]);
      expect(await servedBy((answer as unknown as { id: string }).id)).toBe(provider);
      const { data: stream, response } = await openai.images
        .edit({ model, image: await toFile(solidPng([1, 2, 3]), 'in.png', { type: 'image/png' }), prompt, stream: true, partial_images: 1 })
        .withResponse();
      const events = [];
      for await (const event of stream) events.push(event);
      expect(events.map((e) => e.type)).toEqual(['image_edit.partial_image', 'image_edit.completed']);
      expect((events[1] as OpenAI.Images.ImageEditCompletedEvent).b64_json).toBe(simImage(0));
      expect(await servedBy(response.headers.get('x-generation-id')!)).toBe(provider);
    });

    it('@openrouter/sdk: images.generate streamed (POST /images)', async () => {
      const sdk = new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
      const answer = await sdk.images.generate({ imageGenerationRequest: { model, prompt, stream: true } });
      if (!(Symbol.asyncIterator in answer)) throw new Error('expected a stream');
      const events = [];
      for await (const event of answer) events.push(event);
      expect(events).toEqual([
        expect.objectContaining({ type: 'image_generation.completed', b64Json: simImage(0), mediaType: 'image/png' }),
      ]);
      expect(events[0]).toMatchObject({ usage: { cost: 0.04 } });
    });

    it('@openrouter/sdk: images.generate (POST /images)', async () => {
      const sdk = new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
      const answer = await sdk.images.generate({ imageGenerationRequest: { model, prompt, aspectRatio: '2:3' } });
      if (typeof answer === 'string' || !('data' in answer)) throw new Error(`expected JSON, got ${String(answer)}`);
      expect(answer.data).toEqual([{ b64Json: simImage(0), mediaType: 'image/png' }]);
      expect(answer.usage?.cost).toBe(0.04);
    });
  });

  it('openai: images.generate with response_format url (DALL·E)', async () => {
    const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
    const answer = await openai.images.generate({ model: 'sim/dall-e', prompt, response_format: 'url' });
    const png = await fetch(answer.data![0]!.url!);
    expect(Buffer.from(await png.arrayBuffer()).toString('base64')).toBe(simImage(0));
  });

  it('@openrouter/sdk: images.listModels and listModelEndpoints', async () => {
    const sdk = new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
    const list = await sdk.images.listModels();
    expect(list.data.map((m) => m.id)).toEqual(['sim/image', 'sim/flaky-image', 'sim/dall-e']);
    const endpoints = await sdk.images.listModelEndpoints({ author: 'sim', slug: 'image' });
    expect(endpoints.endpoints[0]?.pricing).toEqual([{ billable: 'output_image', unit: 'image', costUsd: 0.04 }]);
  });
});
