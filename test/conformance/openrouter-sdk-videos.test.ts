import { OpenRouter } from '@openrouter/sdk';
import * as errors from '@openrouter/sdk/models/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { startGateway, type RunningGateway } from '../support/gateway.js';
import { videoSimCatalog } from '../support/video-sim-catalog.js';

/**
 * `videoGeneration.*` of the official @openrouter/sdk against the gateway:
 * every answer must parse with the SDK's own schemas.
 */
describe.each(testEngines)('@openrouter/sdk video generation on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const client = () => new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = videoSimCatalog(sim.url, [
      { id: 'sim/video', upstream: 'sora-2@render_ms=100' },
      { id: 'sim/video-fails', upstream: 'sora-2@render_ms=20,fail=1' },
    ]);
    gw = await startGateway(engine, { catalog, videos: { tickMs: 20, intervalMs: 20 } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const pollUntilDone = async (jobId: string) => {
    for (let i = 0; i < 200; i++) {
      const job = await client().videoGeneration.getGeneration({ jobId });
      if (job.status !== 'pending' && job.status !== 'in_progress') return job;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('job never ended');
  };

  it('generates, polls to completed, and downloads the MP4 stream', async () => {
    const job = await client().videoGeneration.generate({
      videoGenerationRequest: { model: 'sim/video', prompt: 'A serene mountain landscape at sunset', duration: 4, resolution: '720p', aspectRatio: '16:9' },
    });
    expect(job).toMatchObject({ id: expect.stringMatching(/^job-/), pollingUrl: expect.stringContaining(job.id), status: 'pending' });

    const done = await pollUntilDone(job.id);
    expect(done).toMatchObject({ status: 'completed', generationId: expect.stringMatching(/^gen-/), unsignedUrls: [expect.any(String)] });
    expect(done.usage?.cost).toBeCloseTo(0.4);

    const stream = await client().videoGeneration.getVideoContent({ jobId: job.id, index: 0 });
    const bytes = Buffer.from(await new Response(stream).arrayBuffer());
    expect(bytes.toString('latin1', 4, 8)).toBe('ftyp');
  });

  it('reports a failed job with its error', async () => {
    const job = await client().videoGeneration.generate({ videoGenerationRequest: { model: 'sim/video-fails', prompt: 'x' } });
    const done = await pollUntilDone(job.id);
    expect(done).toMatchObject({ status: 'failed', error: 'The simulated render failed' });
  });

  it('lists video models that parse as VideoModel', async () => {
    const list = await client().videoGeneration.listVideosModels();
    expect(list.data.map((m) => m.id)).toEqual(['sim/video', 'sim/video-fails']);
    expect(list.data[0]).toMatchObject({ supportedDurations: [4, 8, 12], pricingSkus: { video_second: '0.1' } });
  });

  it('throws the SDK errors: 404 unknown model and job, 404 content before completion', async () => {
    await expect(client().videoGeneration.generate({ videoGenerationRequest: { model: 'sim/nope', prompt: 'x' } })).rejects.toBeInstanceOf(
      errors.NotFoundResponseError,
    );
    await expect(client().videoGeneration.getGeneration({ jobId: 'job-missing' })).rejects.toBeInstanceOf(errors.NotFoundResponseError);
    const job = await client().videoGeneration.generate({ videoGenerationRequest: { model: 'sim/video', prompt: 'x' } });
    await expect(client().videoGeneration.getVideoContent({ jobId: job.id })).rejects.toBeInstanceOf(errors.NotFoundResponseError);
  });
});
