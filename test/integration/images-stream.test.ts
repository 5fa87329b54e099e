import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { promptColour, solidPng } from '../../src/sim/images/sim-png.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';
import { until } from '../support/until.js';

const prompt = 'a red panda astronaut floating in space';
const PER_IMAGE = '{ image: 0.04 }';
const simImage = (i: number) => solidPng(promptColour(prompt, i)).toString('base64');

interface StreamRead {
  status: number;
  generationId: string | null;
  /** Each event's name (undefined for a data-only event) and data, parsed unless `[DONE]`. */
  events: { name: string | undefined; data: any }[];
  body?: any;
}

describe.each(testEngines)('streamed images on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const simCalls = async () => ((await readSimStats(sim.url)).requests['/v1/images/generations'] as number | undefined) ?? 0;
  const generation = (id: string) => gw.store.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();

  async function stream(
    body: Record<string, unknown>,
    options: { path?: string; key?: string; abortAfterEvents?: number } = {},
  ): Promise<StreamRead> {
    const controller = new AbortController();
    const response = await fetch(`${gw.baseUrl}${options.path ?? '/images'}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.key ?? gw.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt, stream: true, ...body }),
      signal: controller.signal,
    });
    const read: StreamRead = { status: response.status, generationId: response.headers.get('x-generation-id'), events: [] };
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      read.body = await response.json();
      return read;
    }
    const parser = createParser({
      onEvent: (e) => read.events.push({ name: e.event, data: e.data === '[DONE]' ? e.data : JSON.parse(e.data) }),
    });
    const decoder = new TextDecoder();
    try {
      for await (const bytes of response.body!) {
        parser.feed(decoder.decode(bytes as Uint8Array, { stream: true }));
        if (options.abortAfterEvents !== undefined && read.events.length >= options.abortAfterEvents) {
          controller.abort();
          break;
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    return read;
  }

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = taskSimCatalog(sim.url, 'image', [
      { id: 'sim/image', endpoints: [{ provider: 'openai-a', upstream: 'gpt-image-1', pricing: PER_IMAGE }] },
      {
        id: 'sim/flaky-image',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-image-1@status=503', pricing: PER_IMAGE },
          { provider: 'openai-b', upstream: 'gpt-image-1', pricing: PER_IMAGE },
        ],
      },
      {
        id: 'sim/cut-image',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-image-1@fail_after=1,fail_mode=error-event', pricing: PER_IMAGE },
          { provider: 'openai-b', upstream: 'gpt-image-1', pricing: PER_IMAGE },
        ],
      },
      { id: 'sim/dropped-image', endpoints: [{ provider: 'openai-a', upstream: 'gpt-image-1@fail_after=2', pricing: PER_IMAGE }] },
      { id: 'sim/slow-image', endpoints: [{ provider: 'openai-a', upstream: 'gpt-image-1@chunk_delay=5000', pricing: PER_IMAGE }] },
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

  it('POST /images relays the partial images, then the completed image with its media type, usage and cost, then [DONE]', async () => {
    const read = await stream({ model: 'sim/image', partial_images: 2, quality: 'low' });
    expect(read.status).toBe(200);
    expect(read.events).toEqual([
      { name: undefined, data: { type: 'image_generation.partial_image', b64_json: expect.any(String), partial_image_index: 0 } },
      { name: undefined, data: { type: 'image_generation.partial_image', b64_json: expect.any(String), partial_image_index: 1 } },
      {
        name: undefined,
        data: {
          type: 'image_generation.completed',
          b64_json: simImage(0),
          created: expect.any(Number),
          media_type: 'image/png',
          usage: { prompt_tokens: 7, completion_tokens: 272, total_tokens: 279, cost: 0.04 },
        },
      },
      { name: undefined, data: '[DONE]' },
    ]);
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({ model: 'gpt-image-1', stream: true, partial_images: 2 });
    expect(await generation(read.generationId!)).toMatchObject({
      api_type: 'image',
      status: 'success',
      streamed: 1,
      provider_name: 'openai-a',
      total_cost: 0.04,
    });
  });

  it('POST /images/generations relays OpenAI’s named events, the cost in the completed event’s usage, and bills each image', async () => {
    const read = await stream({ model: 'sim/image', n: 2, partial_images: 1 }, { path: '/images/generations' });
    expect(read.events.map((e) => e.name)).toEqual([
      'image_generation.partial_image',
      'image_generation.completed',
      'image_generation.partial_image',
      'image_generation.completed',
    ]);
    const completed = read.events.filter((e) => e.name === 'image_generation.completed').map((e) => e.data);
    expect(completed.map((c) => c.b64_json)).toEqual([simImage(0), simImage(1)]);
    // Each completed event tells the run's usage and cost so far.
    expect(completed.map((c) => c.usage)).toEqual([
      { input_tokens: 7, output_tokens: 1056, total_tokens: 1063, cost: 0.04 },
      { input_tokens: 14, output_tokens: 2112, total_tokens: 2126, cost: 0.08 },
    ]);
    const row = await generation(read.generationId!);
    expect(row).toMatchObject({ status: 'success', streamed: 1, total_cost: 0.08 });
    expect(JSON.parse(row!.routing as string)).toMatchObject({ images: 2 });
  });

  it('refuses with 402 a stream the key’s limit cannot cover, before any upstream call', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tiny', limit: 0.05 } });
    const read = await stream({ model: 'sim/image', n: 2 }, { key: created.body.key });
    expect(read.status).toBe(402);
    expect(read.body.error.metadata).toMatchObject({ required_usd: 0.08 });
    expect(await simCalls()).toBe(0);
  });

  it('falls back to the next endpoint before the first byte, and the ledger lists both attempts', async () => {
    const read = await stream({ model: 'sim/flaky-image' });
    expect(read.events.map((e) => e.data.type ?? e.data)).toEqual(['image_generation.completed', '[DONE]']);
    const gen = await call(gw, 'GET', `/generation?id=${read.generationId}`, { key: gw.managementKey });
    expect(gen.body.data.provider_responses.map((p: { provider_name: string; status: number }) => [p.provider_name, p.status])).toEqual([
      ['openai-a', 503],
      ['openai-b', 200],
    ]);
  });

  it.each([
    ['an error event', 'sim/cut-image', 1],
    ['a dropped connection', 'sim/dropped-image', 2],
  ])('ends a stream the upstream breaks with after its first byte (%s) with the reference’s error event', async (_, model, partials) => {
    const read = await stream({ model, partial_images: 3 });
    expect(read.status).toBe(200);
    expect(read.events.map((e) => e.data.type)).toEqual([...Array(partials).fill('image_generation.partial_image'), 'error']);
    expect(read.events.at(-1)!.data.error).toMatchObject({
      code: 'GW_ERR_UPSTREAM_FAILED',
      message: expect.stringContaining('mid-stream'),
    });
    // No fallback once bytes went out, and no image completed: recorded as failed, nothing charged.
    expect(await simCalls()).toBe(1);
    expect(await generation(read.generationId!)).toMatchObject({ status: 'error', streamed: 1, total_cost: 0 });
  });

  it('records a stream the client leaves as cancelled, charging the images it completed', async () => {
    const read = await stream({ model: 'sim/slow-image', n: 2 }, { abortAfterEvents: 1 });
    expect(read.events.map((e) => e.data.type)).toEqual(['image_generation.completed']);
    const row = await until(
      () => generation(read.generationId!),
      (r) => r !== undefined,
    );
    expect(row).toMatchObject({ status: 'cancelled', cancelled: 1, streamed: 1, total_cost: 0.04 });
  });
});
