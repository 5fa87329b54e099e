import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { speechAudio } from '../../src/sim/audio/speech-route.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

const input = 'Hello from the simulated voice.';
const PER_CHARACTER = '{ character: 0.000015 }';
/** The error envelope of a refused request. */
const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string; metadata: unknown } }).error;

describe.each(testEngines)('speech on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const speak = (body: Record<string, unknown>, key = gw.managementKey) =>
    fetch(`${gw.baseUrl}/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input, voice: 'alloy', ...body }),
    });
  const simCalls = async () => ((await readSimStats(sim.url)).requests['/v1/audio/speech'] as number | undefined) ?? 0;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = taskSimCatalog(sim.url, 'speech', [
      { id: 'sim/tts', endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-mini-tts@chunk_delay=5', pricing: PER_CHARACTER }] },
      {
        id: 'sim/flaky-tts',
        endpoints: [
          { provider: 'openai-a', upstream: 'tts-1@status=503', pricing: PER_CHARACTER },
          { provider: 'openai-b', upstream: 'tts-1', pricing: PER_CHARACTER },
        ],
      },
      { id: 'sim/pricey-tts', endpoints: [{ provider: 'openai-a', upstream: 'tts-1', pricing: '{ character: 0.01 }' }] },
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

  it('streams the provider’s audio through in the format asked, pcm by default, and bills the characters', async () => {
    const res = await speak({ model: 'sim/tts' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/pcm');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(speechAudio({ input, format: 'pcm', speed: 1 }));
    expect((await readSimStats(sim.url)).lastRequestBody).toEqual({
      model: 'gpt-4o-mini-tts@chunk_delay=5',
      input,
      voice: 'alloy',
      response_format: 'pcm',
    });
    const id = res.headers.get('x-generation-id')!;
    const gen = await call(gw, 'GET', `/generation?id=${id}`, { key: gw.managementKey });
    expect(gen.body.data).toMatchObject({
      api_type: 'tts',
      model: 'sim/tts',
      provider_name: 'openai-a',
      status: 'success',
      streamed: true,
      total_cost: input.length * 0.000015,
    });
    const wav = await speak({ model: 'sim/tts', response_format: 'wav', speed: 2 });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await wav.arrayBuffer())).toEqual(speechAudio({ input, format: 'wav', speed: 2 }));
  });

  it.each([
    ['mp3', 'audio/mpeg'],
    ['opus', 'audio/opus'],
    ['aac', 'audio/aac'],
    ['flac', 'audio/flac'],
    ['wav', 'audio/wav'],
    ['pcm', 'audio/pcm'],
  ])('serves %s as OpenAI does, with Content-Type %s and the bytes as made', async (format, type) => {
    const res = await speak({ model: 'sim/tts', response_format: format });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(speechAudio({ input, format, speed: 1 }));
  });

  it('falls back past an endpoint that answers 503', async () => {
    const res = await speak({ model: 'sim/flaky-tts', response_format: 'mp3' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    await res.arrayBuffer();
    const gen = await call(gw, 'GET', `/generation?id=${res.headers.get('x-generation-id')}`, { key: gw.managementKey });
    expect(gen.body.data.provider_responses.map((p: { provider_name: string; status: number }) => [p.provider_name, p.status])).toEqual([
      ['openai-a', 503],
      ['openai-b', 200],
    ]);
  });

  it('refuses with 402 the characters the key’s limit cannot cover, before any upstream call', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'quiet', limit: 0.1 } });
    const res = await speak({ model: 'sim/pricey-tts' }, created.body.key);
    expect(res.status).toBe(402);
    expect((await errorOf(res)).metadata).toEqual({ limit: 'api_key', required_usd: 0.31, available_usd: 0.1 });
    expect(await simCalls()).toBe(0);
  });

  it('passes the provider’s own 400 on (a voice it does not have)', async () => {
    const res = await speak({ model: 'sim/tts', voice: 'nobody' });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain("Invalid value: 'nobody'");
  });

  it.each([
    ['a missing input', { input: undefined }, 'input is required'],
    ['a text too long', { input: 'x'.repeat(4097) }, 'input must be at most 4096 characters long'],
    ['an unknown format', { response_format: 'ogg' }, 'response_format must be one of'],
    ['a speed of 5', { speed: 5 }, 'speed must be <= 4'],
  ])('refuses %s with a 400 naming the field and rule', async (_, over, message) => {
    const res = await speak({ model: 'sim/tts', ...over });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain(message);
    expect(await simCalls()).toBe(0);
  });

  it('refuses a chat model here, naming its endpoint', async () => {
    const res = await speak({ model: 'sim/chat' });
    expect((await errorOf(res)).message).toBe('Model sim/chat is a chat model: send it to POST /chat/completions');
  });
});
