import { describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases.js';
import { migratedStore } from '../../../test/support/migrated-store.js';
import {
  appendStep,
  claimDueRuns,
  countAwaitingRuns,
  findOpenRunInSession,
  findRun,
  insertRun,
  listSteps,
  releaseRuns,
  renewRuns,
  seizeRun,
} from './intern-runs.js';

const t0 = new Date('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe.each(testEngines)('intern runs on $name', (engine) => {
  const store = migratedStore(engine);

  const newRun = (id: string, claimedBy: string | null, claimedUntil: Date | null) =>
    insertRun(
      store.db,
      {
        id,
        session_id: `s-${id}`,
        intern_id: 'i1',
        organization_id: 'o1',
        api_key_hash: 'h',
        approval_mode: 'manual',
        started_at: t0.toISOString(),
        deadline_at: at(3_600_000).toISOString(),
        claimed_by: claimedBy,
        claimed_until: claimedUntil?.toISOString() ?? null,
      },
      'hello',
      t0,
    );

  it('starts a run with its input as step 1 and appends steps in order while holding the lease', async () => {
    await newRun('r1', 'A', at(30_000));
    expect(await listSteps(store.db, 'r1')).toEqual([{ seq: 1, kind: 'input', content: { text: 'hello' }, generation_id: null }]);
    const step = await appendStep(store.db, {
      runId: 'r1',
      token: 'A',
      step: { kind: 'question', content: { id: 'q', question: '?' } },
      change: { status: 'awaiting_input', pending: '{"id":"q"}' },
      now: at(1),
    });
    expect(step).toEqual({ seq: 2, kind: 'question', content: { id: 'q', question: '?' } });
    expect(await findRun(store.db, 'r1')).toMatchObject({ status: 'awaiting_input', steps: 2, pending: '{"id":"q"}' });
    expect(await countAwaitingRuns(store.db, 'i1')).toBe(1);
    expect((await findOpenRunInSession(store.db, 's-r1'))?.id).toBe('r1');
  });

  it('refuses an append from an instance that lost the lease', async () => {
    await newRun('r2', 'A', at(30_000));
    expect(await seizeRun(store.db, { id: 'r2', token: 'B', leaseUntil: at(60_000) })).toBe(true);
    expect(
      await appendStep(store.db, { runId: 'r2', token: 'A', step: { kind: 'steer', content: { text: 'x' } }, change: {}, now: at(2) }),
    ).toBeUndefined();
    expect((await listSteps(store.db, 'r2')).map((s) => s.seq)).toEqual([1]);
  });

  it('an ended run takes no more steps and is no longer open', async () => {
    await newRun('r3', 'A', at(30_000));
    await appendStep(store.db, {
      runId: 'r3',
      token: 'A',
      step: { kind: 'end', content: { reason: 'finished' } },
      change: { status: 'ended', end_reason: 'finished', ended_at: at(3).toISOString() },
      now: at(3),
    });
    expect(
      await appendStep(store.db, { runId: 'r3', token: 'A', step: { kind: 'steer', content: { text: 'late' } }, change: {}, now: at(4) }),
    ).toBeUndefined();
    expect(await findOpenRunInSession(store.db, 's-r3')).toBeUndefined();
  });

  it('claims only free or lapsed leases, one instance at a time; released runs are claimable at once', async () => {
    await newRun('r4', null, null);
    await newRun('r5', 'A', at(10_000));
    const first = await claimDueRuns(store.db, { token: 'B', now: at(5_000), leaseUntil: at(35_000), limit: 10, internIds: ['i1'] });
    expect(first.map((r) => r.id)).toContain('r4');
    expect(first.map((r) => r.id)).not.toContain('r5');
    expect(await claimDueRuns(store.db, { token: 'C', now: at(5_000), leaseUntil: at(35_000), limit: 10, internIds: ['i1'] })).toEqual([]);
    expect(
      (await claimDueRuns(store.db, { token: 'C', now: at(10_000), leaseUntil: at(40_000), limit: 10, internIds: ['i1'] })).map(
        (r) => r.id,
      ),
    ).toContain('r5');
    expect(await renewRuns(store.db, { token: 'B', ids: ['r4', 'r5'], leaseUntil: at(50_000) })).toEqual(['r4']);
    await releaseRuns(store.db, { token: 'B', now: at(11_000) });
    expect(
      (await claimDueRuns(store.db, { token: 'D', now: at(11_000), leaseUntil: at(41_000), limit: 10, internIds: ['i1'] })).map(
        (r) => r.id,
      ),
    ).toContain('r4');
    expect(await claimDueRuns(store.db, { token: 'E', now: at(11_000), leaseUntil: at(41_000), limit: 10, internIds: ['other'] })).toEqual(
      [],
    );
  });
});
