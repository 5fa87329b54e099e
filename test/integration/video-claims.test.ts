import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDueVideoJobs, insertVideoJob, releaseVideoJob, type VideoJobRow } from '../../src/store/repositories/video-jobs.js';
import type { JobChange } from '../../src/videos/job-state.js';
import { settleVideoJob } from '../../src/videos/settle-video-job.js';
import { videoLedgerRow } from '../../src/videos/video-ledger-row.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';

const T0 = new Date('2026-11-21T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

describe.each(testEngines)('video job claims on $name', (engine) => {
  let gw: RunningGateway;
  let key: { hash: string; organization_id: string; workspace_id: string };
  const job = (id: string): VideoJobRow => ({
    id,
    organization_id: key.organization_id,
    workspace_id: key.workspace_id,
    api_key_hash: key.hash,
    generation_id: `gen-${id}`,
    request_id: null,
    model: 'sim/video',
    provider: 'openai-v',
    upstream_model: 'sora-2',
    request: '{"model":"sim/video","prompt":"x"}',
    status: 'pending',
    upstream_id: null,
    error: null,
    failures: 0,
    seconds: null,
    outputs: null,
    cost: null,
    next_poll_at: T0.toISOString(),
    claimed_until: T0.toISOString(),
    claim_token: null,
    user_agent: null,
    origin: null,
    created_at: T0.toISOString(),
    updated_at: T0.toISOString(),
    fallbacks: '[]',
    reserved_usd: null,
    reserved_until: null,
    credential_id: null,
  });
  const completed: JobChange = {
    status: 'completed',
    upstream_id: 'v1',
    error: null,
    failures: 0,
    next_poll_at: T0.toISOString(),
    seconds: 4,
    outputs: 1,
    charge: true,
  };

  beforeAll(async () => {
    gw = await startGateway(engine);
    // The poller must not touch these hand-made jobs.
    await gw.app.videoPoller.stop();
    key = await gw.store.db.selectFrom('api_keys').select(['hash', 'organization_id', 'workspace_id']).executeTakeFirstOrThrow();
    for (const id of ['job-a', 'job-b', 'job-c']) await insertVideoJob(gw.store.db, job(id));
  });
  afterAll(() => gw.close());

  it('takes a lease given back by a stopping instance at once, and only from the holder', async () => {
    // Due before the other jobs: the only one these claims see.
    await insertVideoJob(gw.store.db, { ...job('job-r'), next_poll_at: at(-2_000).toISOString(), claimed_until: at(-2_000).toISOString() });
    const claim = (token: string, ms: number) => claimDueVideoJobs(gw.store.db, { now: at(ms), leaseUntil: at(60_000), limit: 10, token });
    expect((await claim('stopping', -1_000)).map((j) => j.id)).toEqual(['job-r']);
    await releaseVideoJob(gw.store.db, { id: 'job-r', token: 'someone-else', now: at(-900) });
    expect(await claim('other', -900)).toEqual([]);
    await releaseVideoJob(gw.store.db, { id: 'job-r', token: 'stopping', now: at(-800) });
    expect((await claim('restarted', -800)).map((j) => j.id)).toEqual(['job-r']);
    await gw.store.db.deleteFrom('video_jobs').where('id', '=', 'job-r').execute();
  });

  it('never leases a job to two claimers at once; a lapsed lease is taken over', async () => {
    const lease = { now: at(0), leaseUntil: at(1_000), limit: 10 };
    const [one, two] = await Promise.all([
      claimDueVideoJobs(gw.store.db, { ...lease, token: 'one' }),
      claimDueVideoJobs(gw.store.db, { ...lease, token: 'two' }),
    ]);
    const ids = [...one, ...two].map((j) => j.id).sort();
    expect(ids).toEqual(['job-a', 'job-b', 'job-c']);
    expect(await claimDueVideoJobs(gw.store.db, { now: at(500), leaseUntil: at(1_500), limit: 10, token: 'three' })).toEqual([]);
    const retaken = await claimDueVideoJobs(gw.store.db, { now: at(1_000), leaseUntil: at(2_000), limit: 10, token: 'four' });
    expect(retaken.map((j) => j.id).sort()).toEqual(['job-a', 'job-b', 'job-c']);
  });

  it('stores a completion and its charge once: a lost lease cannot settle, and a settled job is not charged again', async () => {
    const row = (await gw.store.db.selectFrom('video_jobs').selectAll().where('id', '=', 'job-a').executeTakeFirstOrThrow()) as VideoJobRow;
    const charge = videoLedgerRow(row, { seconds: 4, cost: 0.4, now: at(1_100) });
    expect(await settleVideoJob(gw.store.db, { id: 'job-a', token: 'one', change: completed, charge, now: at(1_100) })).toBe(false);
    expect(await settleVideoJob(gw.store.db, { id: 'job-a', token: 'four', change: completed, charge, now: at(1_100) })).toBe(true);
    expect(await settleVideoJob(gw.store.db, { id: 'job-a', token: 'four', change: completed, charge, now: at(1_200) })).toBe(false);
    const rows = await gw.store.db.selectFrom('generations').select('total_cost').where('id', '=', 'gen-job-a').execute();
    expect(rows).toEqual([{ total_cost: 0.4 }]);
    const stored = await gw.store.db
      .selectFrom('video_jobs')
      .select(['status', 'cost', 'claim_token'])
      .where('id', '=', 'job-a')
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'completed', cost: 0.4, claim_token: null });
  });
});
