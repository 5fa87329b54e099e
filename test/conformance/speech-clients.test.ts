import OpenAI from 'openai';
import { Stream } from 'openai/core/streaming';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTokenCounter } from '../../src/plugins/shared/token-counter.js';
import { speechAudio } from '../../src/sim/audio/speech-route.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

const input = 'The quick brown fox jumps over the lazy dog.';
/** `sim/tts` answers from its one endpoint; `sim/flaky-tts`'s first endpoint answers 503, so its second serves. */
const MODELS = [
  ['sim/tts', 'openai-a'],
  ['sim/flaky-tts', 'openai-b'],
] as const;

/** gpt-4o-mini-tts's kind of pricing: text tokens in, audio tokens out. */
const TOKEN_PRICES = '{ prompt: 0.0000006, completion: 0.000012 }';

/** The openai client's audio.speech against gateway + simulator, unchanged but for base URL and key. */
describe.each(testEngines)('speech through the openai client on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = taskSimCatalog(sim.url, 'speech', [
      { id: 'sim/tts', endpoints: [{ provider: 'openai-a', upstream: 'tts-1@chunk_delay=2', pricing: '{ character: 0.000015 }' }] },
      { id: 'sim/sse-tts', endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-mini-tts@chunk_delay=2', pricing: TOKEN_PRICES }] },
      {
        id: 'sim/flaky-sse-tts',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-4o-mini-tts@status=503', pricing: TOKEN_PRICES },
          { provider: 'openai-b', upstream: 'gpt-4o-mini-tts', pricing: TOKEN_PRICES },
        ],
      },
      // A server that ignores stream_format and answers raw audio, as local OpenAI-compatible TTS servers do.
      {
        id: 'sim/local-tts',
        endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-mini-tts@raw_audio=1,chunk_delay=2', pricing: TOKEN_PRICES }],
      },
      {
        id: 'sim/flaky-tts',
        endpoints: [
          { provider: 'openai-a', upstream: 'tts-1@status=503', pricing: '{ character: 0.000015 }' },
          { provider: 'openai-b', upstream: 'tts-1', pricing: '{ character: 0.000015 }' },
        ],
      },
    ]);
    gw = await startGateway(engine, { catalog, chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it.each(MODELS)('openai: audio.speech.create with %s, streamed to a file’s bytes', async (model, provider) => {
    const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
    const response = await openai.audio.speech.create({ model, voice: 'coral', input, response_format: 'wav' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(speechAudio({ input, format: 'wav', speed: 1 }));
    const gen = await call(gw, 'GET', `/generation?id=${response.headers.get('x-generation-id')}`, { key: gw.managementKey });
    expect(gen.body.data).toMatchObject({ api_type: 'tts', provider_name: provider });
  });

  it.each([
    ['sim/sse-tts', ['openai-a']],
    ['sim/flaky-sse-tts', ['openai-a', 'openai-b']],
  ])("openai: audio.speech.create with stream_format 'sse' on %s, read with the SDK's own SSE stream", async (model, tried) => {
    const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
    const response = await openai.audio.speech.create({ model, voice: 'coral', input, response_format: 'pcm', stream_format: 'sse' });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: { type: string; audio?: string; usage?: Record<string, number> }[] = [];
    for await (const event of Stream.fromSSEResponse<(typeof events)[number]>(response, new AbortController())) events.push(event);
    const audio = Buffer.concat(events.filter((e) => e.type === 'speech.audio.delta').map((e) => Buffer.from(e.audio!, 'base64')));
    expect(audio).toEqual(speechAudio({ input, format: 'pcm', speed: 1 }));
    const done = events.at(-1)!;
    expect(done.type).toBe('speech.audio.done');
    expect(done.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number), cost: expect.any(Number) });
    const gen = await call(gw, 'GET', `/generation?id=${response.headers.get('x-generation-id')}`, { key: gw.managementKey });
    expect(gen.body.data.total_cost).toBeCloseTo(done.usage!.cost!, 12);
    expect(gen.body.data.provider_responses.map((p: { provider_name: string }) => p.provider_name)).toEqual(tried);
  });

  describe('from a server that ignores stream_format and answers raw audio', () => {
    /** Its row: the text's tokens as the gateway counts them, marked estimated; the audio's tokens were never reported. */
    const expectCounted = async (id: string | null) => {
      const textTokens = (await loadTokenCounter()).count(input);
      const gen = await call(gw, 'GET', `/generation?id=${id}`, { key: gw.managementKey });
      expect(gen.body.data).toMatchObject({
        status: 'success',
        tokens_prompt: textTokens,
        tokens_completion: 0,
        usage_estimated: true,
      });
      expect(gen.body.data.total_cost).toBeCloseTo(textTokens * 0.0000006, 12);
      return { textTokens, cost: gen.body.data.total_cost as number };
    };

    it('openai: audio.speech.create answers its audio', async () => {
      const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
      const response = await openai.audio.speech.create({ model: 'sim/local-tts', voice: 'coral', input, response_format: 'mp3' });
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      expect(Buffer.from(await response.arrayBuffer())).toEqual(speechAudio({ input, format: 'mp3', speed: 1 }));
      await expectCounted(response.headers.get('x-generation-id'));
    });

    it("openai: audio.speech.create with stream_format 'sse' gets OpenAI's events, built from the audio", async () => {
      const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
      const response = await openai.audio.speech.create({
        model: 'sim/local-tts',
        voice: 'coral',
        input,
        response_format: 'pcm',
        stream_format: 'sse',
      });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events: { type: string; audio?: string; usage?: Record<string, number> }[] = [];
      for await (const event of Stream.fromSSEResponse<(typeof events)[number]>(response, new AbortController())) events.push(event);
      const audio = Buffer.concat(events.filter((e) => e.type === 'speech.audio.delta').map((e) => Buffer.from(e.audio!, 'base64')));
      expect(audio).toEqual(speechAudio({ input, format: 'pcm', speed: 1 }));
      const { textTokens, cost } = await expectCounted(response.headers.get('x-generation-id'));
      expect(events.at(-1)).toEqual({
        type: 'speech.audio.done',
        usage: { input_tokens: textTokens, output_tokens: 0, total_tokens: textTokens, cost },
      });
    });
  });
});
