import { expect } from 'vitest';
import { call, type RunningGateway } from './gateway.js';
import { until } from './until.js';

export const pollJob = (gw: Pick<RunningGateway, 'baseUrl'>, id: string, key: string) => call(gw, 'GET', `/videos/${id}`, { key });

/** The job once it left pending and in_progress. */
export const jobEnded = (gw: Pick<RunningGateway, 'baseUrl'>, id: string, key: string) =>
  until(
    () => pollJob(gw, id, key),
    (r) => !['pending', 'in_progress'].includes(r.body.status as string),
  );

/** The ledger rows of a generation id: a completed job has one, any other none. */
export const ledgerRows = (gw: RunningGateway, generationId: string) =>
  gw.store.db.selectFrom('generations').selectAll().where('id', '=', generationId).execute();

/** Submits a job and checks the 202: the job's id, its polling URL and `pending`, nothing else. */
export async function submitAccepted(
  gw: Pick<RunningGateway, 'baseUrl'>,
  body: Record<string, unknown>,
  key: string,
): Promise<{ id: string; polling_url: string }> {
  const accepted = await call(gw, 'POST', '/videos', { key, body });
  expect(accepted.status).toBe(202);
  expect(accepted.body).toEqual({
    id: expect.stringMatching(/^job-/),
    polling_url: `${gw.baseUrl}/videos/${accepted.body.id}`,
    status: 'pending',
  });
  return accepted.body;
}

/**
 * A completed job as polled (one content URL, its cost), its one ledger row
 * and the usage of the key that submitted it, all at `cost`.
 */
export async function expectChargedOnce(
  gw: RunningGateway,
  job: { id: string; polling_url: string },
  done: { body: any },
  { cost, keyHash, model, provider }: { cost: number; keyHash: string; model: string; provider: string },
): Promise<void> {
  expect(done.body).toEqual({
    id: job.id,
    polling_url: job.polling_url,
    status: 'completed',
    generation_id: expect.stringMatching(/^gen-/),
    unsigned_urls: [`${gw.baseUrl}/videos/${job.id}/content?index=0`],
    usage: { cost: expect.closeTo(cost, 9), is_byok: false },
  });
  const rows = await ledgerRows(gw, done.body.generation_id);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ api_type: 'video', status: 'success', model, provider_name: provider });
  expect(rows[0]!.total_cost).toBeCloseTo(cost);
  const keyRow = await gw.store.db.selectFrom('api_keys').select('usage').where('hash', '=', keyHash).executeTakeFirstOrThrow();
  expect(keyRow.usage).toBeCloseTo(cost);
}
