import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { fixtureMp4 } from '../../src/sim/video/fixture-mp4.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { until } from '../support/until.js';
import { expectChargedOnce, jobEnded, ledgerRows, pollJob, submitAccepted } from '../support/video-jobs.js';
import { VIDEO_SECOND, type VideoSimModel, videoSimCatalog } from '../support/video-sim-catalog.js';

const FAST = { tickMs: 20, intervalMs: 20, leaseMs: 2_000 };
const VEO = 'veo-3.1-generate-preview';
const veo = (id: string, knobs: string): VideoSimModel => ({ id, endpoints: [{ provider: 'google-v', upstream: `${VEO}@${knobs}` }] });
const MODELS: VideoSimModel[] = [
  veo('sim/veo', 'render_ms=150'),
  veo('sim/veo-fails', 'render_ms=50,fail=1'),
  veo('sim/veo-filtered', 'render_ms=50,rai=1'),
  veo('sim/veo-refused', 'status=400'),
  veo('sim/veo-gone', 'render_ms=10,content_status=500'),
  veo('sim/veo-slow', 'render_ms=60000'),
  { id: 'sim/veo-2', endpoints: [{ provider: 'google-v', upstream: 'veo-2.0-generate-001@render_ms=50' }] },
  // Two Veo providers at one price: the first (catalog order on ties) is down, the second takes the job.
  {
    id: 'sim/veo-fallback',
    endpoints: [
      { provider: 'google-v', upstream: `${VEO}@status=503` },
      { provider: 'google-eu', upstream: `${VEO}@render_ms=50` },
    ],
  },
  // Veo at 0.4 and OpenAI at 0.1 per second, for the provider preferences.
  {
    id: 'sim/mixed',
    endpoints: [
      { provider: 'google-v', upstream: `${VEO}@render_ms=50`, price: 0.4 },
      { provider: 'openai-v', upstream: 'sora-2@render_ms=50', price: 0.1 },
    ],
  },
];
const PNG = `data:image/png;base64,${Buffer.from('not really a png').toString('base64')}`;
const frame = (frame_type: string, url = PNG) => ({ type: 'image_url', image_url: { url }, frame_type });

describe.each(testEngines)('Veo video jobs on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const submit = (body: Record<string, unknown>, key = gw.managementKey) => call(gw, 'POST', '/videos', { key, body });
  const finished = (id: string) => jobEnded(gw, id, gw.managementKey);
  const lastUpstreamBody = async () => ((await (await fetch(`${sim.url}/__sim/stats`)).json()) as { lastRequestBody: any }).lastRequestBody;
  const jobRow = (id: string) => gw.store.db.selectFrom('video_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: videoSimCatalog(sim.url, MODELS), videos: FAST });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('submits, polls to completed, downloads the MP4 through Google’s redirect, and charges the default 8 seconds once', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'veo' } });
    const key = created.body.key as string;
    const job = await submitAccepted(gw, { model: 'sim/veo', prompt: 'a cat', resolution: '720p', aspect_ratio: '9:16' }, key);
    await until(
      () => pollJob(gw, job.id, key),
      (r) => r.body.status !== 'pending',
    );
    expect(await lastUpstreamBody()).toEqual({ instances: [{ prompt: 'a cat' }], parameters: { aspectRatio: '9:16', resolution: '720p' } });

    const done = await jobEnded(gw, job.id, key);
    await expectChargedOnce(gw, job, done, {
      cost: 8 * VIDEO_SECOND,
      keyHash: created.body.data.hash,
      model: 'sim/veo',
      provider: 'google-v',
    });
    const [row] = await ledgerRows(gw, done.body.generation_id);
    expect(row?.upstream_id).toMatch(/^models\/veo-3\.1-generate-preview\/operations\//);
    const content = await fetch(done.body.unsigned_urls[0], { headers: { authorization: `Bearer ${key}` } });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    expect(Number(content.headers.get('content-length'))).toBe(fixtureMp4().length);
    expect(Buffer.from(await content.arrayBuffer())).toEqual(fixtureMp4());
  });

  it('sends frame images inline and the provider’s own options; bills every video made', async () => {
    const accepted = await submit({
      model: 'sim/veo',
      prompt: 'from here to there',
      duration: 4,
      frame_images: [frame('first_frame'), frame('last_frame')],
      provider: {
        options: { 'google-ai-studio': { sampleCount: 2, negativePrompt: 'rain', watermark: false }, openai: { seconds: '12' } },
      },
    });
    expect(accepted.status).toBe(202);
    const done = await finished(accepted.body.id);
    const image = { bytesBase64Encoded: PNG.split(',')[1], mimeType: 'image/png' };
    expect(await lastUpstreamBody()).toEqual({
      instances: [{ prompt: 'from here to there', image, lastFrame: image }],
      parameters: { sampleCount: 2, negativePrompt: 'rain', durationSeconds: 4 },
    });
    expect(done.body.unsigned_urls).toHaveLength(2);
    expect(done.body.usage.cost).toBeCloseTo(2 * 4 * VIDEO_SECOND);
    const second = await fetch(done.body.unsigned_urls[1], { headers: { authorization: `Bearer ${gw.managementKey}` } });
    expect(Buffer.from(await second.arrayBuffer())).toEqual(fixtureMp4());
    expect((await call(gw, 'GET', `/videos/${accepted.body.id}/content?index=2`, { key: gw.managementKey })).status).toBe(404);
  });

  it.each([
    ['sim/veo-fails', 'failed', 'The simulated render failed'],
    ['sim/veo-filtered', 'failed', 'Veo filtered the video: The simulated video was filtered by Responsible AI checks.'],
    ['sim/veo-refused', 'failed', 'upstream answered 400: Request contains an invalid argument.'],
  ])('reports %s as %s with its error, uncharged (a zero-cost ledger row)', async (model, status, error) => {
    const accepted = await submit({ model, prompt: 'x' });
    const done = await finished(accepted.body.id);
    expect(done.body).toEqual({
      id: accepted.body.id,
      polling_url: accepted.body.polling_url,
      status,
      error,
      generation_id: expect.any(String),
    });
    expect(await ledgerRows(gw, done.body.generation_id)).toMatchObject([{ status: 'error', total_cost: 0, error_message: error }]);
  });

  it('reports a job cancelled upstream as cancelled, uncharged', async () => {
    const accepted = await submit({ model: 'sim/veo-slow', prompt: 'never mind' });
    const running = await until(
      () => jobRow(accepted.body.id),
      (job) => job.upstream_id !== null,
    );
    expect((await pollJob(gw, accepted.body.id, gw.managementKey)).body.status).toBe('in_progress');
    const cancel = await fetch(`${sim.url}/v1beta/${running.upstream_id}:cancel`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'sim-key' },
    });
    expect(cancel.status).toBe(200);
    const done = await finished(accepted.body.id);
    expect(done.body).toMatchObject({ status: 'cancelled', error: 'Operation cancelled.' });
    expect(done.body.usage).toBeUndefined();
    expect(await ledgerRows(gw, done.body.generation_id)).toMatchObject([{ status: 'cancelled', cancelled: 1, total_cost: 0 }]);
  });

  it('answers 404 for content before completion and 502 when the stored video cannot be fetched', async () => {
    const slow = await submit({ model: 'sim/veo-slow', prompt: 'slow' });
    expect((await call(gw, 'GET', `/videos/${slow.body.id}/content`, { key: gw.managementKey })).status).toBe(404);
    const gone = await submit({ model: 'sim/veo-gone', prompt: 'gone' });
    await finished(gone.body.id);
    const res = await call(gw, 'GET', `/videos/${gone.body.id}/content`, { key: gw.managementKey });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({ code: 502, message: expect.stringContaining('upstream answered 500') });
  });

  it('refuses with a 400 naming the field what the model cannot make, before any job is stored', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ model: 'sim/veo', prompt: 'x', duration: 5 }, 'duration: sim/veo makes 4, 6 or 8 second videos, not 5'],
      [{ model: 'sim/veo', prompt: 'x', resolution: '1080p', duration: 4 }, 'duration: Veo makes 1080p videos of 8 seconds only, not 4'],
      [{ model: 'sim/veo', prompt: 'x', aspect_ratio: '1:1' }, 'aspect_ratio: sim/veo makes 16:9 or 9:16 videos, not 1:1'],
      [
        { model: 'sim/veo', frame_images: [frame('first_frame', 'https://example.com/cat.png')] },
        expect.stringContaining('frame_images[0].image_url.url: Veo on the Gemini API takes images inline'),
      ],
      [
        { model: 'sim/veo', prompt: 'x', frame_images: [frame('last_frame')] },
        'frame_images: Veo takes a last_frame only with a first_frame',
      ],
      [{ model: 'sim/veo-2', prompt: 'x', generate_audio: true }, 'generate_audio: sim/veo-2 makes videos without audio'],
      [
        { model: 'sim/veo-2', prompt: 'x', frame_images: [frame('first_frame'), frame('last_frame')] },
        'frame_images[1].frame_type: sim/veo-2 takes only first_frame, not last_frame',
      ],
      [
        { model: 'sim/veo', prompt: 'x', callback_url: 'https://example.com/hook' },
        'callback_url: this gateway sends no webhooks; poll the polling_url instead',
      ],
      [{ model: 'sim/veo', prompt: 'x', frame_images: [{ frame_type: 'first_frame' }] }, 'frame_images[0].type is required'],
      [{ model: 'sim/veo', prompt: 'x', provider: { data_collection: 'deny' } }, 'provider has an unknown property "data_collection"'],
    ];
    const before = await gw.store.db
      .selectFrom('video_jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    for (const [body, message] of cases) {
      const res = await submit(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toEqual(message);
    }
    const after = await gw.store.db
      .selectFrom('video_jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses with 402 a job that would cost more than the key has left', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'small', limit: 0.5 } });
    const refused = await submit({ model: 'sim/veo', prompt: 'x' }, created.body.key);
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toBe(
      "This request can cost up to $0.8, more than the $0.5 left of the API key's spending limit once the requests in flight are counted",
    );
    expect((await submit({ model: 'sim/veo', prompt: 'x', duration: 4 }, created.body.key)).status).toBe(202);
  });

  it('moves a job the first provider cannot take to the next planned one, charging that one', async () => {
    const accepted = await submit({ model: 'sim/veo-fallback', prompt: 'x' });
    const done = await finished(accepted.body.id);
    expect(done.body.status).toBe('completed');
    const [row] = await ledgerRows(gw, done.body.generation_id);
    expect(row).toMatchObject({ provider_name: 'google-eu' });
    expect(await jobRow(accepted.body.id)).toMatchObject({ provider: 'google-eu', fallbacks: '[]' });
  });

  it('applies provider preferences to where the job goes, and to what each endpoint can make', async () => {
    const servedBy = async (body: Record<string, unknown>) => {
      const accepted = await submit({ model: 'sim/mixed', prompt: 'x', ...body });
      expect(accepted.status, JSON.stringify(body)).toBe(202);
      return (await jobRow(accepted.body.id)).provider;
    };
    expect(await servedBy({ provider: { sort: 'price' } })).toBe('openai-v');
    expect(await servedBy({ provider: { order: ['google-v'] } })).toBe('google-v');
    expect(await servedBy({ provider: { only: ['google-v'] } })).toBe('google-v');
    // Only Veo makes 6-second videos: the cheaper OpenAI endpoint is passed over.
    expect(await servedBy({ provider: { sort: 'price' }, duration: 6 })).toBe('google-v');
    const none = await submit({ model: 'sim/mixed', prompt: 'x', provider: { ignore: ['google-v', 'openai-v'] } });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/^No endpoints found for sim\/mixed matching your provider preferences: provider\.ignore/);
  });

  it('lists Veo models with what they make, their options and price per second', async () => {
    const res = await call(gw, 'GET', '/videos/models', { key: gw.managementKey });
    expect(res.body.data.find((m: { id: string }) => m.id === 'sim/veo')).toMatchObject({
      supported_durations: [4, 6, 8],
      supported_resolutions: ['720p', '1080p'],
      supported_aspect_ratios: ['16:9', '9:16'],
      supported_frame_images: ['first_frame', 'last_frame'],
      generate_audio: true,
      seed: false,
      allowed_passthrough_parameters: ['negativePrompt', 'personGeneration', 'sampleCount'],
      pricing_skus: { video_second: '0.1' },
    });
    expect(res.body.data.find((m: { id: string }) => m.id === 'sim/veo-2')).toMatchObject({
      supported_durations: [5, 6, 7, 8],
      generate_audio: false,
    });
  });

  it('expires a job still running past its time limit', async () => {
    const shortLived = await startGateway(engine, { catalog: videoSimCatalog(sim.url, MODELS), videos: { ...FAST, maxAgeMs: 300 } });
    try {
      const accepted = await call(shortLived, 'POST', '/videos', {
        key: shortLived.managementKey,
        body: { model: 'sim/veo-slow', prompt: 'x' },
      });
      const done = await jobEnded(shortLived, accepted.body.id, shortLived.managementKey);
      expect(done.body).toMatchObject({
        status: 'expired',
        error: 'Video generation did not finish in time',
        generation_id: expect.any(String),
      });
      expect(await ledgerRows(shortLived, done.body.generation_id)).toMatchObject([
        { status: 'error', total_cost: 0, error_message: 'Video generation did not finish in time' },
      ]);
    } finally {
      await shortLived.close();
    }
  });
});
