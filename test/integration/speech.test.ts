import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTokenCounter } from '../../src/plugins/shared/token-counter.js';
import { speechAudio, speechUsage } from '../../src/sim/audio/speech-route.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

const input = 'Hello from the simulated voice.';
const PER_CHARACTER = '{ character: 0.000015 }';
/** gpt-4o-mini-tts's kind of pricing: text tokens in, audio tokens out. */
const TOKEN_PRICES = '{ prompt: 0.0000006, completion: 0.000012 }';
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
      { id: 'sim/tts-1', endpoints: [{ provider: 'openai-a', upstream: 'tts-1', pricing: PER_CHARACTER }] },
      { id: 'sim/token-tts', endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-mini-tts', pricing: TOKEN_PRICES }] },
      {
        id: 'sim/flaky-token-tts',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-4o-mini-tts@status=503', pricing: TOKEN_PRICES },
          { provider: 'openai-b', upstream: 'gpt-4o-mini-tts', pricing: TOKEN_PRICES },
        ],
      },
      // The same, for raw audio: each model's failed endpoint is tried last once it failed, so each test has its own.
      {
        id: 'sim/flaky-token-tts-raw',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-4o-mini-tts@status=503', pricing: TOKEN_PRICES },
          { provider: 'openai-b', upstream: 'gpt-4o-mini-tts', pricing: TOKEN_PRICES },
        ],
      },
      {
        id: 'sim/slow-token-tts',
        endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-mini-tts@chunk_delay=50', pricing: TOKEN_PRICES }],
      },
      { id: 'sim/breaking-tts', endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-mini-tts@fail_after=1', pricing: TOKEN_PRICES }] },
      // Servers that ignore stream_format and answer raw audio, as local OpenAI-compatible TTS servers do.
      { id: 'sim/local-tts', endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-mini-tts@raw_audio=1', pricing: TOKEN_PRICES }] },
      { id: 'sim/local-tts-1', endpoints: [{ provider: 'openai-a', upstream: 'tts-1@raw_audio=1', pricing: PER_CHARACTER }] },
      {
        id: 'sim/local-breaking-tts',
        endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-mini-tts@raw_audio=1,fail_after=1', pricing: TOKEN_PRICES }],
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

  /** The data-only events of an SSE speech, parsed. */
  const events = async (res: Response) =>
    (await res.text())
      .split('\n\n')
      .filter((frame) => frame.startsWith('data: '))
      .map((frame) => JSON.parse(frame.slice('data: '.length)) as { type: string; audio?: string; usage?: any; error?: any });
  const generation = async (res: Response) =>
    (await call(gw, 'GET', `/generation?id=${res.headers.get('x-generation-id')}`, { key: gw.managementKey })).body.data;

  /** An SSE speech whose delta events carry the audio as made, its last event and its row (written before that event went out). */
  const sseSpeech = async (model: string, format: string) => {
    const res = await speak({ model, response_format: format, stream_format: 'sse' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const got = await events(res);
    const row = await generation(res);
    expect(got.slice(0, -1).every((e) => e.type === 'speech.audio.delta')).toBe(true);
    const audio = Buffer.concat(got.slice(0, -1).map((e) => Buffer.from(e.audio!, 'base64')));
    expect(audio).toEqual(speechAudio({ input, format, speed: 1 }));
    return { done: got.at(-1)!, row };
  };

  /** A speech's row: served by the last endpoint tried, billed the simulator's tokens at TOKEN_PRICES. */
  const expectBilledTokens = (row: any, tried: string[]) => {
    const tokens = speechUsage({ input, speed: 1 });
    expect(row).toMatchObject({
      api_type: 'tts',
      status: 'success',
      streamed: true,
      provider_name: tried.at(-1),
      tokens_prompt: tokens.input_tokens,
      tokens_completion: tokens.output_tokens,
      usage_estimated: false,
    });
    expect(row.total_cost).toBeCloseTo(tokens.input_tokens * 0.0000006 + tokens.output_tokens * 0.000012, 12);
    expect(row.provider_responses.map((p: { provider_name: string }) => p.provider_name)).toEqual(tried);
  };

  it.each([
    ['sim/token-tts', 'wav', ['openai-a']],
    ['sim/flaky-token-tts', 'mp3', ['openai-a', 'openai-b']],
  ])('streams %s as SSE: the audio in delta events, the done event with the tokens and the cost billed', async (model, format, tried) => {
    const { done, row } = await sseSpeech(model, format);
    expect(done.type).toBe('speech.audio.done');
    const tokens = speechUsage({ input, speed: 1 });
    expect(done.usage).toEqual({ ...tokens, cost: expect.any(Number) });
    expect(done.usage.cost).toBeCloseTo(tokens.input_tokens * 0.0000006 + tokens.output_tokens * 0.000012, 12);
    expect((await simCalls()) >= tried.length).toBe(true);
    expectBilledTokens(row, tried);
    expect(row.total_cost).toBeCloseTo(done.usage.cost, 12);
  });

  it('ends an SSE speech that breaks after its first event with an error event, and records the failure', async () => {
    const res = await speak({ model: 'sim/breaking-tts', stream_format: 'sse' });
    expect(res.status).toBe(200);
    const got = await events(res);
    expect(got[0]!.type).toBe('speech.audio.delta');
    expect(got.at(-1)).toMatchObject({ type: 'error', error: { code: 502, message: expect.stringContaining('mid-stream') } });
    const row = await generation(res);
    expect(row).toMatchObject({ status: 'error', streamed: true, tokens_completion: 0 });
    expect(row.tokens_prompt).toBeGreaterThan(0);
  });

  it.each([
    ['sim/token-tts', 'wav', ['openai-a']],
    ['sim/flaky-token-tts-raw', 'pcm', ['openai-a', 'openai-b']],
  ])('serves %s as raw audio from the provider’s events, billed the tokens they report', async (model, format, tried) => {
    const res = await speak({ model, response_format: format });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(format === 'wav' ? 'audio/wav' : 'audio/pcm');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(speechAudio({ input, format, speed: 1 }));
    // The tokens come only in an SSE speech's done event: the gateway asked for one.
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({ response_format: format, stream_format: 'sse' });
    // Written once the audio has gone by, before the answer ended.
    expectBilledTokens(await generation(res), tried);
  });

  it('cuts raw audio billed by tokens that breaks after its first bytes, and bills the text it accepted', async () => {
    const res = await speak({ model: 'sim/breaking-tts', response_format: 'pcm' });
    expect(res.status).toBe(200);
    // Raw audio cannot say it failed: the chunked answer ends without its last chunk.
    await expect(res.arrayBuffer()).rejects.toThrow();
    await expect.poll(async () => (await generation(res))?.status, { timeout: 5000 }).toBe('error');
    const row = await generation(res);
    expect(row).toMatchObject({ status: 'error', streamed: true, tokens_completion: 0 });
    expect(row.tokens_prompt).toBeGreaterThan(0);
    expect(row.total_cost).toBeCloseTo(row.tokens_prompt * 0.0000006, 12);
  });

  it('bills raw audio billed by tokens whose client leaves mid-way as cancelled, its text’s tokens', async () => {
    const leave = new AbortController();
    const res = await fetch(`${gw.baseUrl}/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim/slow-token-tts', input: input.repeat(20), voice: 'alloy' }),
      signal: leave.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    leave.abort();
    await expect.poll(async () => (await generation(res))?.status, { timeout: 5000 }).toBe('cancelled');
    const row = await generation(res);
    expect(row).toMatchObject({ streamed: true, tokens_completion: 0 });
    expect(row.tokens_prompt).toBeGreaterThan(0);
  });

  /** A row of a speech whose server answered raw audio: its text's tokens as the gateway counts them, marked so; no audio tokens. */
  const expectCountedTokens = async (row: any) => {
    const textTokens = (await loadTokenCounter()).count(input);
    expect(row).toMatchObject({
      api_type: 'tts',
      status: 'success',
      streamed: true,
      provider_name: 'openai-a',
      tokens_prompt: textTokens,
      tokens_completion: 0,
      usage_estimated: true,
    });
    expect(row.total_cost).toBeCloseTo(textTokens * 0.0000006, 12);
    return textTokens;
  };

  it('relays raw audio from a server that ignores stream_format, billed the text’s tokens as the gateway counts them', async () => {
    const res = await speak({ model: 'sim/local-tts', response_format: 'mp3' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(speechAudio({ input, format: 'mp3', speed: 1 }));
    // Asked for events (a token price), answered raw audio.
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({ stream_format: 'sse' });
    await expectCountedTokens(await generation(res));
  });

  it.each([
    ['sim/local-tts', 'pcm'],
    ['sim/local-tts-1', 'wav'],
  ])(
    'builds SSE from the raw audio of a server that ignores stream_format (%s), its done event with the counted tokens',
    async (model, format) => {
      const { done, row } = await sseSpeech(model, format);
      const textTokens = (await loadTokenCounter()).count(input);
      expect(done).toEqual({
        type: 'speech.audio.done',
        usage: { input_tokens: textTokens, output_tokens: 0, total_tokens: textTokens, cost: row.total_cost },
      });
      if (model === 'sim/local-tts') await expectCountedTokens(row);
      else expect(row).toMatchObject({ status: 'success', usage_estimated: true, total_cost: input.length * 0.000015 });
    },
  );

  it('ends SSE built from raw audio that breaks after its first bytes with an error event, billed the text’s tokens', async () => {
    const res = await speak({ model: 'sim/local-breaking-tts', response_format: 'pcm', stream_format: 'sse' });
    expect(res.status).toBe(200);
    const got = await events(res);
    expect(got[0]!.type).toBe('speech.audio.delta');
    expect(got.at(-1)).toMatchObject({ type: 'error', error: { code: 502, message: expect.stringContaining('mid-stream') } });
    const row = await generation(res);
    expect(row).toMatchObject({ status: 'error', streamed: true, tokens_completion: 0, usage_estimated: true });
    expect(row.tokens_prompt).toBe((await loadTokenCounter()).count(input));
  });

  it('passes on the provider’s 400 for SSE from a model that only speaks raw audio (tts-1)', async () => {
    const res = await speak({ model: 'sim/tts-1', stream_format: 'sse' });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain("Invalid value: 'sse'");
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
    ['an unknown stream format', { stream_format: 'ws' }, 'stream_format must be one of'],
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
