import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { jobEnded, ledgerRows, submitAccepted } from '../support/video-jobs.js';
import { VIDEO_SECOND, videoSimCatalog } from '../support/video-sim-catalog.js';

/**
 * Video jobs on BYOK credentials, as chats: a job of a key that may use a
 * credential for the endpoint's provider goes out on it, and its status polls
 * and download keep using it (the simulator, as OpenAI, shows a video only to
 * the key that made it), for keys of its workspace only; a refused
 * credential falls back to the gateway's own; the job is billed the fee rate, its price counted as BYOK usage, and
 * toward the key's limit only with include_byok_in_limit.
 */
const FAST = { tickMs: 20, intervalMs: 20, leaseMs: 2_000 };
const MODELS = [{ id: 'sim/video', upstream: 'sora-2@render_ms=100' }];
const VIDEO = { model: 'sim/video', prompt: 'a dog', duration: 4, resolution: '720p' };
const PRICE = 4 * VIDEO_SECOND;
const FEE_RATE = 0.25;

describe.each(testEngines)('BYOK video jobs on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const admin = (method: string, path: string, body?: unknown) => call(gw, method, path, { key: gw.managementKey, body });
  const upstreamAuthorization = async () =>
    ((await readSimStats(sim.url)) as { lastRequestHeaders: Record<string, string> }).lastRequestHeaders.authorization;

  /** A workspace with a credential of its own for the video provider, and a key of it. */
  async function workspaceWith(slug: string, providerKey: string, fields: Record<string, unknown> = {}) {
    const workspaceId = (await admin('POST', '/workspaces', { name: slug, slug })).body.data.id as string;
    const credential = await admin('POST', '/byok', { provider: 'openai-v', key: providerKey, workspace_id: workspaceId });
    expect(credential.status).toBe(201);
    const made = (await admin('POST', '/keys', { name: slug, workspace_id: workspaceId, ...fields })).body;
    return { credentialId: credential.body.data.id as string, key: made.key as string, hash: made.data.hash as string };
  }
  const finished = async (key: string) => {
    const job = await submitAccepted(gw, VIDEO, key);
    return { job, done: (await jobEnded(gw, job.id, key)).body };
  };

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: videoSimCatalog(sim.url, MODELS), videos: FAST, byok: { feeRate: FEE_RATE } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('submits, polls and downloads on the workspace’s credential, and bills it as BYOK', async () => {
    const mine = await workspaceWith('video-ours', 'sk-video-ours-key');
    const { job, done } = await finished(mine.key);
    expect(await upstreamAuthorization()).toBe('Bearer sk-video-ours-key');
    // Polled to completion: the simulator answered each status poll only for the key that made the video.
    expect(done).toMatchObject({ status: 'completed', usage: { cost: expect.closeTo(PRICE * FEE_RATE, 9), is_byok: true } });
    const row = await gw.store.db.selectFrom('video_jobs').select('credential_id').where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(row.credential_id).toBe(mine.credentialId);

    const content = await fetch(`${gw.baseUrl}/videos/${job.id}/content`, { headers: { authorization: `Bearer ${mine.key}` } });
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    await content.arrayBuffer();
    // A key of another workspace neither sees the job nor downloads it on this workspace's credential.
    const stranger = (await admin('POST', '/keys', { name: 'video-stranger' })).body.key as string;
    expect((await call(gw, 'GET', `/videos/${job.id}`, { key: stranger })).status).toBe(404);
    expect((await call(gw, 'GET', `/videos/${job.id}/content`, { key: stranger })).status).toBe(404);

    const [ledger] = await ledgerRows(gw, done.generation_id);
    expect(ledger).toMatchObject({ api_type: 'video', status: 'success', is_byok: 1 });
    expect(ledger!.byok_cost).toBeCloseTo(PRICE, 12);
    expect(ledger!.total_cost).toBeCloseTo(PRICE * FEE_RATE, 12);
    const generation = await call(gw, 'GET', `/generation?id=${done.generation_id}`, { key: mine.key });
    expect(generation.body.data.is_byok).toBe(true);
    const record = (await call(gw, 'GET', '/key', { key: mine.key })).body.data;
    expect(record.usage).toBeCloseTo(PRICE * FEE_RATE, 10);
    expect(record.byok_usage).toBeCloseTo(PRICE, 10);
    expect(record.byok_usage_daily).toBeCloseTo(PRICE, 10);
  });

  it('goes out on the gateway’s own credential for a key of another workspace, and when the provider refuses the BYOK one', async () => {
    const other = (await admin('POST', '/keys', { name: 'video-default' })).body.key as string;
    const plain = await finished(other);
    expect(await upstreamAuthorization()).toBe('Bearer sim-key');
    expect(plain.done).toMatchObject({ status: 'completed', usage: { cost: expect.closeTo(PRICE, 9), is_byok: false } });

    const refused = await workspaceWith('video-refused', 'sk-sim-revoked-video');
    const { job, done } = await finished(refused.key);
    expect(done).toMatchObject({ status: 'completed', usage: { cost: expect.closeTo(PRICE, 9), is_byok: false } });
    expect(await upstreamAuthorization()).toBe('Bearer sim-key');
    const row = await gw.store.db.selectFrom('video_jobs').select('credential_id').where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(row.credential_id).toBeNull();
    const [ledger] = await ledgerRows(gw, done.generation_id);
    expect(ledger).toMatchObject({ is_byok: 0, byok_cost: 0 });
  });

  it('counts a job’s BYOK usage toward the key’s limit only with include_byok_in_limit', async () => {
    // A limit one job's fee and price fit under, not a second job's hold on top.
    const limit = PRICE + PRICE * FEE_RATE;
    const counted = await workspaceWith('video-limit-in', 'sk-video-in-key', { limit, include_byok_in_limit: true });
    const free = await workspaceWith('video-limit-out', 'sk-video-out-key', { limit });
    for (const k of [counted, free]) expect((await finished(k.key)).done.status).toBe('completed');
    const refusal = await call(gw, 'POST', '/videos', { key: counted.key, body: VIDEO });
    expect(refusal.status).toBe(402);
    expect((await call(gw, 'GET', '/key', { key: counted.key })).body.data.limit_remaining).toBeCloseTo(0, 10);
    expect((await finished(free.key)).done.status).toBe('completed');
    expect((await call(gw, 'GET', '/key', { key: free.key })).body.data.limit_remaining).toBeCloseTo(limit - 2 * PRICE * FEE_RATE, 10);
  });
});
