import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../test/support/databases.js';
import { migratedStore } from '../../test/support/migrated-store.js';
import { hashApiKey } from '../accounts/api-key-material.js';
import { bootstrap } from '../accounts/bootstrap.js';
import { GuardrailCache } from '../guardrails/guardrail-cache.js';
import { type ApiKeyRow, findApiKeyByHash } from '../store/repositories/api-keys.js';
import { generationRow } from './generation-row.testing.js';
import { recordGeneration } from './record-generation.js';
import { spendLimits } from './reservation-limits.js';
import { databaseAccounts } from './reservation-loads.js';
import { spendGuard } from './spend-guard.js';
import type { WorkspaceBudgets } from './workspace-budget-rules.js';

const redisUrl = process.env.TEST_REDIS_URL;
const noGuardrails = new GuardrailCache(async () => ({ guardrails: [], assignments: [] }));
const monday = new Date('2026-11-23T12:00:00.000Z');

/** Each backend that holds: this process's book over each database, and Redis (over SQLite) when there is one. */
const backends = [
  ...testEngines.map((engine) => ({ name: `book over ${engine.name}`, engine, redis: false })),
  ...(redisUrl ? [{ name: 'Redis', engine: testEngines[0]!, redis: true }] : []),
];

describe.each(testEngines)('a workspace account read from $name', (engine) => {
  const store = migratedStore(engine);

  it("is what the workspace spent in the window, its keys' spend not yet written, and its running video jobs' holds", async () => {
    const now = monday;
    const secret = 'sk-mg-v1-workspace-account-read-test-key-000000000000000';
    const { organizationId } = await bootstrap(store.db, () => now, secret);
    const hash = hashApiKey(secret);
    const { workspace_id: workspaceId } = (await findApiKeyByHash(store.db, hash))!;
    await recordGeneration(
      store.db,
      generationRow({ organization_id: organizationId, workspace_id: workspaceId, api_key_hash: hash, total_cost: 2 }),
      now,
    );
    const job = (id: string, workspace_id: string, status: 'in_progress' | 'completed') => ({
      id,
      organization_id: organizationId,
      workspace_id,
      api_key_hash: hash,
      generation_id: `gen-${id}`,
      request_id: null,
      model: 'sim/video',
      provider: 'p',
      upstream_model: 'm',
      request: '{}',
      status,
      upstream_id: null,
      error: null,
      seconds: null,
      outputs: null,
      cost: null,
      next_poll_at: now.toISOString(),
      claimed_until: now.toISOString(),
      claim_token: null,
      user_agent: null,
      origin: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      reserved_usd: 1.5,
      reserved_until: '2026-11-23T14:00:00.000Z',
    });
    await store.db
      .insertInto('video_jobs')
      .values([job('v1', workspaceId, 'in_progress'), job('v2', workspaceId, 'completed'), job('v3', 'another workspace', 'in_progress')])
      .execute();
    const [limit] = spendLimits(
      { hash, organization_id: organizationId, limit_usd: null, limit_reset: null, include_byok_in_limit: 0 },
      [],
      now,
      null,
      {
        workspaceId,
        includeByok: false,
        budgets: [{ interval: 'weekly', limitUsd: 10 }],
      },
    );
    const unwritten = new Map([
      [hash, 0.25],
      ['a key of another workspace', 100],
    ]);
    expect(await databaseAccounts(store.db, () => unwritten)(limit!.account, now)).toEqual({
      committed: 2.25,
      holds: [{ id: 'v1', amount: 1.5, expiresAt: Date.parse('2026-11-23T14:00:00.000Z'), stored: true }],
    });
  });
});

describe.each(backends)('workspace budgets held on the $name', ({ engine, redis: withRedis }) => {
  const store = migratedStore(engine);
  const redis = withRedis ? new Redis(redisUrl!) : undefined;
  afterAll(() => redis?.disconnect());

  /** A workspace of its own per test (Redis keeps accounts between tests), its two keys, and a guard over its budgets. */
  function workspace(budgets: WorkspaceBudgets['budgets'], clock: () => Date = () => monday) {
    const workspaceId = `ws-${randomBytes(6).toString('hex')}`;
    const key = (hash: string) =>
      ({
        hash: `${workspaceId}-${hash}`,
        organization_id: 'org',
        workspace_id: workspaceId,
        creator_user_id: null,
        limit_usd: null,
        limit_reset: null,
        include_byok_in_limit: 0,
      }) as ApiKeyRow;
    const spend = spendGuard(store.db, noGuardrails, clock, {
      ...(redis ? { redis } : {}),
      workspaceBudgets: async (_organization, id) => (id === workspaceId ? { workspaceId, includeByok: false, budgets } : null),
    });
    return { workspaceId, keys: [key('a'), key('b')] as const, spend };
  }

  it('lets 40 concurrent requests of two keys hold no more than the narrowest budget leaves, then refuses the spent budget', async () => {
    const { keys, spend } = workspace([
      { interval: 'daily', limitUsd: 1 },
      { interval: 'weekly', limitUsd: 2 },
      { interval: 'lifetime', limitUsd: 5 },
    ]);
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => spend.reserve(keys[i % 2]!, () => ({ usd: 0.1 }), { id: `r${i}-${keys[0].hash}` })),
    );
    const held = results.filter((r) => r.status === 'fulfilled');
    expect(held).toHaveLength(10);
    for (const refused of results.filter((r) => r.status === 'rejected'))
      expect(refused.reason).toMatchObject({
        statusCode: 402,
        code: 'GW_ERR_SPEND_LIMIT_TOO_LOW',
        metadata: { limit: 'workspace_budget', interval: 'daily', available_usd: 0 },
      });
    await Promise.all(held.map((r) => r.value.settle(0.1)));
    await expect(spend.reserve(keys[1], () => ({ usd: 0 }), { id: `after-${keys[0].hash}` })).rejects.toMatchObject({
      statusCode: 402,
      code: 'GW_ERR_WORKSPACE_BUDGET_SPENT',
      message: "The workspace's daily budget of $1 is spent: its keys have used $1 in this period",
      metadata: { limit: 'workspace_budget', interval: 'daily', limit_usd: 1, usage: 1, resets_at: '2026-11-24T00:00:00.000Z' },
    });
  });

  it("counts what the workspace spent before, a deleted key's too, and starts a daily budget again at UTC midnight", async () => {
    let now = monday;
    const { workspaceId, keys, spend } = workspace(
      [
        { interval: 'daily', limitUsd: 1 },
        { interval: 'weekly', limitUsd: 1.5 },
      ],
      () => now,
    );
    await recordGeneration(store.db, generationRow({ workspace_id: workspaceId, api_key_hash: 'a deleted key', total_cost: 1 }), now);
    await expect(spend.reserve(keys[0], () => ({ usd: 0.1 }), { id: `a-${workspaceId}` })).rejects.toMatchObject({
      code: 'GW_ERR_WORKSPACE_BUDGET_SPENT',
      metadata: { interval: 'daily', workspace_id: workspaceId },
    });
    now = new Date('2026-11-24T00:00:00.000Z');
    const reservation = await spend.reserve(keys[1], () => ({ usd: 0.5 }), { id: `b-${workspaceId}` });
    await expect(spend.reserve(keys[0], () => ({ usd: 0.01 }), { id: `c-${workspaceId}` })).rejects.toMatchObject({
      code: 'GW_ERR_SPEND_LIMIT_TOO_LOW',
      metadata: { limit: 'workspace_budget', interval: 'weekly', available_usd: 0 },
    });
    await reservation.release();
  });

  it('holds nothing for a key whose workspace has no budget', async () => {
    const { spend } = workspace([]);
    const other = { hash: 'elsewhere', organization_id: 'org', workspace_id: 'none', limit_usd: null, creator_user_id: null } as ApiKeyRow;
    expect((await spend.reserve(other, () => expect.unreachable('no ceiling'), { id: 'x' })).amount).toBe(0);
  });
});
