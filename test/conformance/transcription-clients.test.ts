import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_RATE, wav } from '../../src/sim/audio/sim-audio.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

/** A second of 24 kHz 16-bit silence, as a WAV file. */
const SECOND_OF_SILENCE = wav(Buffer.alloc(SAMPLE_RATE * 2));
const PRICING = '{ audio_second: 0.0001 }';
const TOKEN_PRICING = '{ prompt: 0.000006, completion: 0.00001 }';
/** `sim/stt` answers from its one endpoint; `sim/flaky-stt`'s first endpoint answers 503, so its second serves. */
const MODELS = [
  ['sim/stt', 'openai-a'],
  ['sim/flaky-stt', 'openai-b'],
] as const;

/** The openai client's audio.transcriptions against gateway + simulator, unchanged but for base URL and key. */
describe.each(testEngines)('transcription through the openai client on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let openai: OpenAI;
  const audio = () => toFile(SECOND_OF_SILENCE, 'silence.wav', { type: 'audio/wav' });

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = taskSimCatalog(sim.url, 'transcription', [
      { id: 'sim/stt', endpoints: [{ provider: 'openai-a', upstream: 'whisper-1', pricing: PRICING }] },
      { id: 'sim/4o-stt', endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-transcribe', pricing: TOKEN_PRICING }] },
      {
        id: 'sim/flaky-4o-stt',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-4o-transcribe@status=503', pricing: TOKEN_PRICING },
          { provider: 'openai-b', upstream: 'gpt-4o-transcribe', pricing: TOKEN_PRICING },
        ],
      },
      { id: 'sim/diarize-stt', endpoints: [{ provider: 'openai-a', upstream: 'gpt-4o-transcribe-diarize', pricing: TOKEN_PRICING }] },
      {
        id: 'sim/flaky-diarize-stt',
        endpoints: [
          { provider: 'openai-a', upstream: 'gpt-4o-transcribe-diarize@status=503', pricing: TOKEN_PRICING },
          { provider: 'openai-b', upstream: 'gpt-4o-transcribe-diarize', pricing: TOKEN_PRICING },
        ],
      },
      {
        id: 'sim/flaky-stt',
        endpoints: [
          { provider: 'openai-a', upstream: 'whisper-1@status=503', pricing: PRICING },
          { provider: 'openai-b', upstream: 'whisper-1', pricing: PRICING },
        ],
      },
    ]);
    gw = await startGateway(engine, { catalog, chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
    openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it.each(MODELS)('openai: audio.transcriptions.create with %s', async (model, provider) => {
    const { data, response } = await openai.audio.transcriptions.create({ model, file: await audio() }).withResponse();
    expect(data.text).toBe('Simulated speech, part 1 of 1.');
    expect(data.usage).toEqual({ type: 'duration', seconds: 1, cost: 0.0001 });
    const gen = await call(gw, 'GET', `/generation?id=${response.headers.get('x-generation-id')}`, { key: gw.managementKey });
    expect(gen.body.data).toMatchObject({ api_type: 'stt', provider_name: provider, total_cost: 0.0001 });
  });

  it('openai: verbose_json with word timestamps, and srt as a string', async () => {
    const verbose = await openai.audio.transcriptions.create({
      model: 'sim/stt',
      file: await audio(),
      response_format: 'verbose_json',
      timestamp_granularities: ['word'],
    });
    expect(verbose).toMatchObject({ duration: 1, language: 'english', text: 'Simulated speech, part 1 of 1.' });
    expect(verbose.words?.[0]).toEqual({ word: 'Simulated', start: 0, end: 0.17 });
    const srt = await openai.audio.transcriptions.create({ model: 'sim/stt', file: await audio(), response_format: 'srt' });
    expect(srt).toBe('1\n00:00:00,000 --> 00:00:01,000\nSimulated speech, part 1 of 1.\n');
  });

  it.each([
    ['sim/4o-stt', 'openai-a'],
    ['sim/flaky-4o-stt', 'openai-b'],
  ])('openai: audio.transcriptions.create({stream: true}) with %s iterates the deltas and the done event', async (model, provider) => {
    const { data: stream, response } = await openai.audio.transcriptions
      .create({ model, file: await audio(), stream: true })
      .withResponse();
    const events = [];
    for await (const event of stream) events.push(event);
    const deltas = events.flatMap((e) => (e.type === 'transcript.text.delta' ? [e.delta] : []));
    expect(deltas.join('')).toBe('Simulated speech, part 1 of 1.');
    const done = events.at(-1);
    expect(done?.type).toBe('transcript.text.done');
    // A second: 10 audio tokens in, the 30-character transcript's 8 out.
    const cost = 10 * 0.000006 + 8 * 0.00001;
    expect(done?.type === 'transcript.text.done' && done.usage).toMatchObject({ type: 'tokens', input_tokens: 10, output_tokens: 8 });
    expect((done as unknown as { usage: { cost: number } }).usage.cost).toBeCloseTo(cost, 12);
    const gen = await call(gw, 'GET', `/generation?id=${response.headers.get('x-generation-id')}`, { key: gw.managementKey });
    expect(gen.body.data).toMatchObject({ api_type: 'stt', provider_name: provider, streamed: true });
    expect(gen.body.data.total_cost).toBeCloseTo(cost, 12);
  });

  it.each([
    ['sim/diarize-stt', 'openai-a'],
    ['sim/flaky-diarize-stt', 'openai-b'],
  ])('openai: diarized_json with %s, known speakers and chunking_strategy, whole and streamed', async (model, provider) => {
    const params = {
      model,
      file: await audio(),
      response_format: 'diarized_json' as const,
      chunking_strategy: { type: 'server_vad' as const, threshold: 0.5 },
      known_speaker_names: ['agent'],
      known_speaker_references: [`data:audio/wav;base64,${SECOND_OF_SILENCE.toString('base64')}`],
    };
    const { data, response } = await openai.audio.transcriptions.create(params).withResponse();
    expect(data).toMatchObject({ task: 'transcribe', duration: 1, text: 'Simulated speech, part 1 of 1.' });
    expect((data as unknown as { segments: unknown[] }).segments).toEqual([
      { type: 'transcript.text.segment', id: 'seg_0', start: 0, end: 1, speaker: 'agent', text: ' Simulated speech, part 1 of 1.' },
    ]);
    const gen = await call(gw, 'GET', `/generation?id=${response.headers.get('x-generation-id')}`, { key: gw.managementKey });
    expect(gen.body.data).toMatchObject({ api_type: 'stt', provider_name: provider });
    const stream = await openai.audio.transcriptions.create({ ...params, file: await audio(), stream: true });
    const types = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual([...Array(6).fill('transcript.text.delta'), 'transcript.text.segment', 'transcript.text.done']);
  });

  it('openai: a file the gateway refuses is an APIError with its status', async () => {
    await expect(openai.audio.transcriptions.create({ model: 'sim/chat', file: await audio() })).rejects.toMatchObject({ status: 400 });
  });
});
