import { OpenRouter } from '@openrouter/sdk';
import * as errors from '@openrouter/sdk/models/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { fixtureMp4 } from '../../src/sim/video/fixture-mp4.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { ledgerRows } from '../support/video-jobs.js';
import { videoSimCatalog } from '../support/video-sim-catalog.js';

/**
 * `videoGeneration.*` of the official @openrouter/sdk against the gateway:
 * every answer must parse with the SDK's own schemas.
 */
describe.each(testEngines)('@openrouter/sdk video generation on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const clientOf = (g: RunningGateway) =>
    new OpenRouter({ apiKey: g.managementKey, serverURL: g.baseUrl, retryConfig: { strategy: 'none' } });
  const client = () => clientOf(gw);
  const catalog = () =>
    videoSimCatalog(sim.url, [
      { id: 'sim/video', upstream: 'sora-2@render_ms=100' },
      { id: 'sim/video-fails', upstream: 'sora-2@render_ms=20,fail=1' },
      { id: 'sim/veo', endpoints: [{ provider: 'google-v', upstream: 'veo-3.1-generate-preview@render_ms=100' }] },
      { id: 'sim/veo-slow', endpoints: [{ provider: 'google-v', upstream: 'veo-3.1-generate-preview@render_ms=1500' }] },
    ]);

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: catalog(), videos: { tickMs: 20, intervalMs: 20 } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const pollUntil = async (sdk: OpenRouter, jobId: string, done: (status: string) => boolean) => {
    for (let i = 0; i < 400; i++) {
      const job = await sdk.videoGeneration.getGeneration({ jobId });
      if (done(job.status)) return job;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('job never got there');
  };
  const pollUntilDone = (jobId: string, sdk = client()) => pollUntil(sdk, jobId, (s) => s !== 'pending' && s !== 'in_progress');
  const bytesOf = async (stream: ReadableStream<Uint8Array>) => Buffer.from(await new Response(stream).arrayBuffer());

  it.each([
    ['sim/video', 4, 0.4],
    ['sim/veo', 8, 0.8],
  ])('generates with %s, polls to completed, and downloads the MP4 stream', async (model, duration, cost) => {
    const job = await client().videoGeneration.generate({
      videoGenerationRequest: { model, prompt: 'A serene mountain landscape at sunset', duration, resolution: '720p', aspectRatio: '16:9' },
    });
    expect(job).toMatchObject({ id: expect.stringMatching(/^job-/), pollingUrl: expect.stringContaining(job.id), status: 'pending' });

    const done = await pollUntilDone(job.id);
    expect(done).toMatchObject({ status: 'completed', generationId: expect.stringMatching(/^gen-/), unsignedUrls: [expect.any(String)] });
    expect(done.usage?.cost).toBeCloseTo(cost);

    const stream = await client().videoGeneration.getVideoContent({ jobId: job.id, index: 0 });
    expect(await bytesOf(stream)).toEqual(fixtureMp4());
  });

  it('finishes a Veo job across a gateway restart, downloads it from the new process, and charges it once', async () => {
    const database = await engine.create();
    const tuning = { tickMs: 20, intervalMs: 20 };
    try {
      const first = await startGateway(engine, { databaseUrl: database.url, catalog: catalog(), videos: tuning });
      const job = await clientOf(first).videoGeneration.generate({
        videoGenerationRequest: { model: 'sim/veo-slow', prompt: 'survive a restart' },
      });
      await pollUntil(clientOf(first), job.id, (s) => s === 'in_progress');
      await first.close();

      const second = await startGateway(engine, { databaseUrl: database.url, catalog: catalog(), videos: tuning });
      try {
        const done = await pollUntilDone(job.id, clientOf(second));
        expect(done).toMatchObject({ status: 'completed', usage: { cost: expect.closeTo(0.8, 9) } });
        expect(await bytesOf(await clientOf(second).videoGeneration.getVideoContent({ jobId: job.id }))).toEqual(fixtureMp4());
        expect(await ledgerRows(second, done.generationId!)).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('reports a failed job with its error', async () => {
    const job = await client().videoGeneration.generate({ videoGenerationRequest: { model: 'sim/video-fails', prompt: 'x' } });
    const done = await pollUntilDone(job.id);
    expect(done).toMatchObject({ status: 'failed', error: 'The simulated render failed' });
  });

  it('lists video models that parse as VideoModel', async () => {
    const list = await client().videoGeneration.listVideosModels();
    expect(list.data.map((m) => m.id)).toEqual(['sim/video', 'sim/video-fails', 'sim/veo', 'sim/veo-slow']);
    expect(list.data[0]).toMatchObject({ supportedDurations: [4, 8, 12], pricingSkus: { video_second: '0.1' } });
    expect(list.data[2]).toMatchObject({ supportedDurations: [4, 6, 8], supportedFrameImages: ['first_frame', 'last_frame'] });
  });

  it('throws the SDK errors: 400 a duration the model does not make, 404 unknown model and job, 404 content before completion', async () => {
    await expect(
      client().videoGeneration.generate({ videoGenerationRequest: { model: 'sim/veo', prompt: 'x', duration: 5 } }),
    ).rejects.toBeInstanceOf(errors.BadRequestResponseError);
    await expect(client().videoGeneration.generate({ videoGenerationRequest: { model: 'sim/nope', prompt: 'x' } })).rejects.toBeInstanceOf(
      errors.NotFoundResponseError,
    );
    await expect(client().videoGeneration.getGeneration({ jobId: 'job-missing' })).rejects.toBeInstanceOf(errors.NotFoundResponseError);
    const job = await client().videoGeneration.generate({ videoGenerationRequest: { model: 'sim/veo-slow', prompt: 'x' } });
    await expect(client().videoGeneration.getVideoContent({ jobId: job.id })).rejects.toBeInstanceOf(errors.NotFoundResponseError);
  });
});
