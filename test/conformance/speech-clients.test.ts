import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** The openai client's audio.speech against gateway + simulator, unchanged but for base URL and key. */
describe.each(testEngines)('speech through the openai client on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = taskSimCatalog(sim.url, 'speech', [
      { id: 'sim/tts', endpoints: [{ provider: 'openai-a', upstream: 'tts-1@chunk_delay=2', pricing: '{ character: 0.000015 }' }] },
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
});
