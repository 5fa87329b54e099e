import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { until } from '../support/until.js';
import { expectChargedOnce, jobEnded, ledgerRows, pollJob, submitAccepted } from '../support/video-jobs.js';
import { VIDEO_SECOND, videoSimCatalog } from '../support/video-sim-catalog.js';

const FAST = { tickMs: 20, intervalMs: 20, leaseMs: 2_000 };
const MODELS = [
  { id: 'sim/video', upstream: 'sora-2@render_ms=150' },
  { id: 'sim/video-fails', upstream: 'sora-2@render_ms=50,fail=1' },
  { id: 'sim/video-refused', upstream: 'sora-2@status=400' },
  { id: 'sim/video-gone', upstream: 'sora-2@render_ms=10,content_status=500' },
  { id: 'sim/video-slow', upstream: 'sora-2@render_ms=1500' },
  {
    id: 'sim/video-pro',
    endpoints: [
      { provider: 'openai-v' as const, upstream: 'sora-2-pro@render_ms=50', price: 0.3, bySize: { '1792x1024': 0.5, '1080p': 0.5 } },
    ],
  },
];

describe.each(testEngines)('video jobs on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let otherKey: string;
  const submit = (body: Record<string, unknown>, key = gw.managementKey) => call(gw, 'POST', '/videos', { key, body });
  const poll = (id: string, key = gw.managementKey, g: RunningGateway = gw) => pollJob(g, id, key);
  const finished = (id: string, g: RunningGateway = gw) => jobEnded(g, id, gw.managementKey);
  const ledger = (generationId: string) => ledgerRows(gw, generationId);

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, {
      catalog: videoSimCatalog(sim.url, MODELS),
      videos: FAST,
      // The observability destinations' receivers are the simulator's, on loopback.
      plugins: { allowPrivateRanges: ['127.0.0.0/8'] },
      destinations: { intervalMs: 50 },
    });
    const now = new Date().toISOString();
    await gw.store.db
      .insertInto('organizations')
      .values({ id: 'org_other', name: 'Other', slug: 'other', is_default: 0, created_at: now })
      .execute();
    const ws = '22222222-2222-4222-8222-222222222222';
    await gw.store.db
      .insertInto('workspaces')
      .values({ id: ws, organization_id: 'org_other', name: 'Default', slug: 'default', is_default: 1, created_at: now })
      .execute();
    otherKey = (await createApiKey(gw.store.db, { organizationId: 'org_other', workspaceId: ws, name: 'Other', isManagement: true }, now))
      .key;
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('queues a job’s charge for the observability destinations in its ledger transaction, as any generation’s', async () => {
    const admin = (method: string, path: string, body?: unknown) => call(gw, method, path, { key: gw.managementKey, body });
    const workspaceId = (await admin('GET', '/workspaces')).body.data[0].id;
    expect((await admin('PATCH', `/workspaces/${workspaceId}`, { is_observability_broadcast_enabled: true })).status).toBe(200);
    const destination = await admin('POST', '/observability/destinations', {
      type: 'webhook',
      name: 'videos',
      config: { url: `${sim.url}/receivers/webhook/videos` },
    });
    expect(destination.status).toBe(201);
    const job = await submitAccepted(gw, { model: 'sim/video', prompt: 'a dog', duration: 4, resolution: '720p' }, gw.managementKey);
    const done = await finished(job.id);
    expect(done.body.status).toBe('completed');
    const hooks = await until(
      async () => ((await (await fetch(`${sim.url}/__sim/receivers`)).json()) as { webhook: { body: Record<string, unknown> }[] }).webhook,
      (received) => received.length > 0,
    );
    expect(hooks.map((h) => h.body)).toEqual([
      expect.objectContaining({ id: done.body.generation_id, api_type: 'video', model: 'sim/video', status: 'success' }),
    ]);
    expect((await admin('DELETE', `/observability/destinations/${destination.body.data.id}`)).status).toBe(200);
    await admin('PATCH', `/workspaces/${workspaceId}`, { is_observability_broadcast_enabled: false });
  });

  it('submits (202), polls to completed, downloads the MP4, and charges once', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'video' } });
    const key = created.body.key as string;
    const job = await submitAccepted(
      gw,
      { model: 'sim/video', prompt: 'a cat', duration: 8, resolution: '720p', aspect_ratio: '16:9' },
      key,
    );
    const done = await finished(job.id, gw);
    expect(done.status).toBe(200);
    await expectChargedOnce(gw, job, done, {
      cost: 8 * VIDEO_SECOND,
      keyHash: created.body.data.hash,
      model: 'sim/video',
      provider: 'openai-v',
    });
    expect((await poll(job.id, key)).body).toEqual(done.body);

    const content = await fetch(done.body.unsigned_urls[0], { headers: { authorization: `Bearer ${key}` } });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(Number(content.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.toString('latin1', 4, 8)).toBe('ftyp');
  });

  it('sends the first frame as OpenAI’s input_reference; a last frame is refused', async () => {
    const first = { type: 'image_url', image_url: { url: 'https://example.com/first.png' }, frame_type: 'first_frame' };
    const accepted = await submit({ model: 'sim/video', prompt: 'from a picture', frame_images: [first] });
    await until(
      () => poll(accepted.body.id),
      (r) => r.body.status !== 'pending',
    );
    const stats = (await (await fetch(`${sim.url}/__sim/stats`)).json()) as { lastRequestBody: unknown };
    expect(stats.lastRequestBody).toEqual({
      model: 'sora-2@render_ms=150',
      prompt: 'from a picture',
      input_reference: { image_url: 'https://example.com/first.png' },
    });
    const last = await submit({ model: 'sim/video', prompt: 'x', frame_images: [{ ...first, frame_type: 'last_frame' }] });
    expect(last.body.error).toEqual({ code: 400, message: 'frame_images[0].frame_type: sim/video takes only first_frame, not last_frame' });
  });

  it('hides a job from another organization (404 on poll and content)', async () => {
    const accepted = await submit({ model: 'sim/video', prompt: 'mine' });
    expect((await poll(accepted.body.id, otherKey)).status).toBe(404);
    expect((await call(gw, 'GET', `/videos/${accepted.body.id}/content`, { key: otherKey })).status).toBe(404);
    expect((await poll('job-nope')).status).toBe(404);
  });

  it('answers 404 for content before completion and for a bad index', async () => {
    const accepted = await submit({ model: 'sim/video-slow', prompt: 'slow' });
    expect((await call(gw, 'GET', `/videos/${accepted.body.id}/content`, { key: gw.managementKey })).status).toBe(404);
    const quick = await submit({ model: 'sim/video', prompt: 'quick' });
    await finished(quick.body.id);
    expect((await call(gw, 'GET', `/videos/${quick.body.id}/content?index=1`, { key: gw.managementKey })).status).toBe(404);
    expect((await call(gw, 'GET', `/videos/${quick.body.id}/content?index=-1`, { key: gw.managementKey })).status).toBe(400);
  });

  it('answers 502 when the upstream copy cannot be fetched', async () => {
    const accepted = await submit({ model: 'sim/video-gone', prompt: 'gone' });
    await finished(accepted.body.id);
    const res = await call(gw, 'GET', `/videos/${accepted.body.id}/content`, { key: gw.managementKey });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe(502);
  });

  it.each([
    ['sim/video-fails', 'The simulated render failed'],
    ['sim/video-refused', expect.stringContaining('upstream answered 400')],
  ])('reports %s as failed with its error, uncharged, its generation id a zero-cost error row', async (model, error) => {
    const accepted = await submit({ model, prompt: 'x' });
    const done = await finished(accepted.body.id);
    expect(done.body).toEqual({
      id: accepted.body.id,
      polling_url: accepted.body.polling_url,
      status: 'failed',
      error,
      generation_id: expect.any(String),
    });
    expect(await ledger(done.body.generation_id)).toMatchObject([{ status: 'error', total_cost: 0, error_message: error }]);
    const generation = await call(gw, 'GET', `/generation?id=${done.body.generation_id}`, { key: gw.managementKey });
    expect(generation.status).toBe(200);
    expect(generation.body.data).toMatchObject({ id: done.body.generation_id, total_cost: 0 });
  });

  it('validates: 400 bad body or wrong task, 401 without a key, 404 unknown model, 402 spent key', async () => {
    expect((await submit({ prompt: 'no model' })).status).toBe(400);
    expect((await submit({ model: 'sim/video', prompt: 'x', duration: 0 })).status).toBe(400);
    expect((await submit({ model: 'sim/video', prompt: 'x', resolution: '9000p' })).status).toBe(400);
    expect((await submit({ model: 'sim/video' })).status).toBe(400);
    expect((await submit({ model: 'sim/chat', prompt: 'x' })).status).toBe(400);
    expect((await call(gw, 'POST', '/videos', { body: { model: 'sim/video', prompt: 'x' } })).status).toBe(401);
    expect((await call(gw, 'GET', '/videos/job-x')).status).toBe(401);
    const empty = await call(gw, 'GET', '/videos/', { key: gw.managementKey });
    expect(empty.body.error).toEqual({ code: 400, message: 'path parameter jobId must be at least 1 character long' });
    const unknown = await submit({ model: 'sim/nope', prompt: 'x' });
    expect(unknown.status).toBe(404);
    const spent = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'spent', limit: 0.0001 } });
    await gw.store.db.updateTable('api_keys').set({ usage: 1 }).where('hash', '=', spent.body.data.hash).execute();
    gw.app.log.level = 'silent';
    const refused = await submit({ model: 'sim/video', prompt: 'x' }, spent.body.key);
    expect(refused.status).toBe(402);
  });

  it('charges a size priced apart at its own rate per second', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'video-pro' } });
    const large = await submitAccepted(gw, { model: 'sim/video-pro', prompt: 'wide', duration: 4, size: '1792x1024' }, created.body.key);
    await expectChargedOnce(gw, large, await finished(large.id, gw), {
      cost: 4 * 0.5,
      keyHash: created.body.data.hash,
      model: 'sim/video-pro',
      provider: 'openai-v',
    });
    const small = await submitAccepted(gw, { model: 'sim/video-pro', prompt: 'small', duration: 4, resolution: '720p' }, gw.managementKey);
    const done = await finished(small.id, gw);
    expect((await ledger(done.body.generation_id))[0]?.total_cost).toBeCloseTo(4 * 0.3);
    const listed = (await call(gw, 'GET', '/videos/models', { key: gw.managementKey })).body.data.find(
      (m: { id: string }) => m.id === 'sim/video-pro',
    );
    expect(listed.pricing_skus).toEqual({ video_second: '0.3', video_second_1792x1024: '0.5', video_second_1080p: '0.5' });
  });

  it('lists the video models with options and price per second', async () => {
    const res = await call(gw, 'GET', '/videos/models', { key: gw.managementKey });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: { id: string }) => m.id)).toEqual(MODELS.map((m) => m.id));
    expect(res.body.data[0]).toMatchObject({ id: 'sim/video', supported_durations: [4, 8, 12], pricing_skus: { video_second: '0.1' } });
  });

  it('a second instance finishes a job the first claimed and then stopped polling, charging once', async () => {
    const accepted = await submit({ model: 'sim/video-slow', prompt: 'survive', duration: 4 });
    // The first instance holds the job, then "dies": its lease lapses while the upstream renders.
    await until(
      () => poll(accepted.body.id),
      (r) => r.body.status === 'in_progress',
    );
    await gw.app.videoPoller.stop();
    const second = await startGateway(engine, { databaseUrl: gw.store.url, catalog: videoSimCatalog(sim.url, MODELS), videos: FAST });
    try {
      const done = await finished(accepted.body.id, second);
      expect(done.body.status).toBe('completed');
      expect(await ledger(done.body.generation_id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
