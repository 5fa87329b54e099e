import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGenerations } from '../../src/accounting/record-generation.js';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { bucketOf, LATENCY_BUCKETS, quantileOf } from '../../src/store/latency-sketch.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const MODELS = [
  { id: 'sim/a', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.00001, completion: 0.00002 }] },
  { id: 'sim/b', endpoints: [{ provider: 'beta', upstream: 'sim-model', prompt: 0.00003, completion: 0.00004 }] },
  { id: 'sim/down', endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=500' }] },
];

interface LedgerRow {
  api_key_hash: string;
  model: string;
  provider_name: string | null;
  status: string;
  total_cost: number;
  tokens_prompt: number;
  tokens_completion: number;
  created_at: string;
  latency_ms: number | null;
  ttft_ms: number | null;
}

const round = (usd: number) => Math.round(usd * 1e12) / 1e12;

/** The ledger summed by a key of its rows: what every answer below must agree with. */
function sums(rows: readonly LedgerRow[], keyOf: (row: LedgerRow) => string) {
  const out = new Map<string, { requests: number; cost: number; errors: number; prompt: number; completion: number }>();
  for (const row of rows) {
    const key = keyOf(row);
    const s = out.get(key) ?? { requests: 0, cost: 0, errors: 0, prompt: 0, completion: 0 };
    s.requests += 1;
    s.cost = round(s.cost + row.total_cost);
    s.errors += row.status === 'error' ? 1 : 0;
    s.prompt += row.tokens_prompt;
    s.completion += row.tokens_completion;
    out.set(key, s);
  }
  return out;
}

describe.each(testEngines)('activity and analytics on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let plainKey: string;
  let keys: { a: { key: string; hash: string }; b: { key: string; hash: string } };
  let ledger: LedgerRow[];
  const clock = testClock('2026-11-20T10:15:00.000Z');

  const chat = (key: string, model: string) =>
    call(gw, 'POST', '/chat/completions', { key, body: { model, max_tokens: 20, messages: [{ role: 'user', content: 'hello there' }] } });
  const query = (body: unknown, key = gw.managementKey) => call(gw, 'POST', '/analytics/query', { key, body });

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { clock: clock.clock, catalog: simCatalog(sim.url, ['alpha', 'beta'], MODELS) });
    const create = async (name: string) =>
      (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name } })).body as { key: string; data: { hash: string } };
    const a = await create('team a');
    const b = await create('team b');
    keys = { a: { key: a.key, hash: a.data.hash }, b: { key: b.key, hash: b.data.hash } };
    plainKey = a.key;
    // Day 1, two hours; day 2; and today (day 3), which /activity leaves out until it is over.
    for (const _ of [1, 2]) expect((await chat(keys.a.key, 'sim/a')).status).toBe(200);
    clock.set('2026-11-20T11:40:00.000Z');
    expect((await chat(keys.b.key, 'sim/b')).status).toBe(200);
    expect((await chat(keys.a.key, 'sim/b')).status).toBe(200);
    clock.set('2026-11-21T08:00:00.000Z');
    expect((await chat(keys.a.key, 'sim/down')).status).toBe(502);
    expect((await chat(keys.b.key, 'sim/a')).status).toBe(200);
    clock.set('2026-11-22T09:30:00.000Z');
    expect((await chat(keys.b.key, 'sim/a')).status).toBe(200);

    // Another organization's spend in the same hours: never seen here.
    const at = '2026-11-20T10:00:00.000Z';
    await gw.store.db
      .insertInto('organizations')
      .values({ id: 'org_other', name: 'Other', slug: 'other', is_default: 0, created_at: at })
      .execute();
    await recordGenerations(
      gw.store.db,
      [
        {
          id: 'gen-other',
          organization_id: 'org_other',
          workspace_id: 'w',
          api_key_hash: 'h',
          model: 'sim/a',
          provider_name: 'alpha',
          api_type: 'completions',
          status: 'success',
          streamed: 0,
          cancelled: 0,
          total_cost: 5,
          created_at: at,
        },
      ],
      new Date(at),
    );
    ledger = (await gw.store.db
      .selectFrom('generations')
      .select([
        'api_key_hash',
        'model',
        'provider_name',
        'status',
        'total_cost',
        'tokens_prompt',
        'tokens_completion',
        'created_at',
        'latency_ms',
        'ttft_ms',
      ])
      .where('organization_id', '=', gw.organizationId)
      .execute()) as LedgerRow[];
    expect(ledger).toHaveLength(7);
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  describe('GET /activity', () => {
    const activity = (query = '', key = gw.managementKey) => call(gw, 'GET', `/activity${query}`, { key });

    it('gives usage per completed UTC day, model and endpoint in the reference shape, today left out', async () => {
      const res = await activity();
      expect(res.status).toBe(200);
      const expected = sums(
        ledger.filter((row) => row.created_at < '2026-11-22'),
        (row) => `${row.created_at.slice(0, 10)}|${row.model}|${row.provider_name}`,
      );
      expect(res.body.data).toHaveLength(expected.size);
      for (const item of res.body.data) {
        const s = expected.get(`${item.date}|${item.model}|${item.provider_name}`)!;
        expect(item).toEqual({
          date: item.date,
          model: item.model,
          model_permaslug: item.model,
          endpoint_id: `${item.model}@${item.provider_name}`,
          provider_name: item.provider_name,
          usage: s.cost,
          byok_usage_inference: 0,
          requests: s.requests,
          prompt_tokens: s.prompt,
          completion_tokens: s.completion,
          reasoning_tokens: 0,
          // This ledger's one failure is the provider's (a 502); refusals are counted in refusals.test.ts.
          errors_4xx: 0,
          errors_5xx: s.errors,
        });
      }
      expect(res.body.data.map((i: { date: string }) => i.date)).toEqual(['2026-11-20', '2026-11-20', '2026-11-21', '2026-11-21']);
    });

    it('narrows to one day, one key, a member or a workspace, and splits per workspace when asked', async () => {
      const day = await activity('?date=2026-11-21');
      expect(day.body.data.map((i: { model: string; requests: number }) => [i.model, i.requests])).toEqual([
        ['sim/a', 1],
        ['sim/down', 1],
      ]);
      const byKey = await activity(`?api_key_hash=${keys.b.hash}`);
      expect(byKey.body.data.map((i: { date: string; model: string }) => `${i.date} ${i.model}`)).toEqual([
        '2026-11-20 sim/b',
        '2026-11-21 sim/a',
      ]);
      const workspace = (await call(gw, 'GET', `/keys/${keys.a.hash}`, { key: gw.managementKey })).body.data.workspace_id as string;
      const split = await activity(`?group_by=workspace&workspace_id=${workspace}`);
      expect(split.body.data).toHaveLength(4);
      for (const item of split.body.data) expect(item.workspace_id).toBe(workspace);
      expect((await activity()).body.data[0]).not.toHaveProperty('workspace_id');
      const owner = (await call(gw, 'GET', '/organization/members', { key: gw.managementKey })).body.data[0].id as string;
      const keyOwners = await gw.store.db
        .selectFrom('api_keys')
        .select(['hash', 'creator_user_id'])
        .where('hash', 'in', [keys.a.hash, keys.b.hash])
        .execute();
      const mine = await activity(`?user_id=${owner}`);
      const ownedRows = ledger.filter(
        (row) => row.created_at < '2026-11-22' && keyOwners.some((k) => k.hash === row.api_key_hash && k.creator_user_id === owner),
      );
      expect(mine.body.data.reduce((n: number, i: { requests: number }) => n + i.requests, 0)).toBe(ownedRows.length);
    });

    it('refuses a date outside the last 30 completed days, a malformed one, an unknown workspace or member, and keys that are not management keys', async () => {
      for (const [date, rule] of [
        ['2026-11-22', 'is not one of the last 30 completed UTC days (2026-10-23 to 2026-11-21)'],
        ['2026-10-22', 'is not one of the last 30 completed UTC days'],
        ['2026-02-30', 'must be a UTC date written YYYY-MM-DD'],
      ]) {
        const res = await activity(`?date=${date}`);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toContain(rule);
        expect(res.body.error.message).toMatch(/^query parameter date /);
      }
      expect((await activity('?date=21-11-2026')).body.error.message).toMatch(/^query parameter date must match the pattern/);
      expect((await activity('?api_key_hash=nothex')).status).toBe(400);
      expect((await activity('?group_by=key')).body.error.message).toBe('query parameter group_by must be one of "workspace"');
      expect((await activity('?workspace_id=11111111-1111-4111-8111-111111111111')).status).toBe(404);
      expect((await activity('?user_id=user_nobody')).status).toBe(404);
      expect((await activity('', plainKey)).status).toBe(403);
      expect((await call(gw, 'GET', '/activity')).status).toBe(401);
    });
  });

  describe('analytics', () => {
    it('GET /analytics/meta lists what the gateway records', async () => {
      const res = await call(gw, 'GET', '/analytics/meta', { key: gw.managementKey });
      expect(res.status).toBe(200);
      expect(res.body.data.metrics).toContainEqual({
        name: 'request_count',
        display_label: 'Request Count',
        is_rate: false,
        display_format: 'number',
      });
      expect(res.body.data.metrics.map((m: { name: string }) => m.name)).toEqual([
        'request_count',
        'total_usage',
        'prompt_tokens',
        'completion_tokens',
        'reasoning_tokens',
        'cached_tokens',
        'total_tokens',
        'error_count',
        'error_count_4xx',
        'error_count_5xx',
        'error_rate',
        'avg_latency',
        'latency_p50',
        'latency_p95',
        'first_token_p50',
        'first_token_p95',
      ]);
      expect(res.body.data.dimensions.map((d: { name: string }) => d.name)).toEqual(['model', 'provider', 'api_key_id', 'workspace']);
      expect(res.body.data.granularities).toEqual([
        { name: 'hour', display_label: 'Hour' },
        { name: 'day', display_label: 'Day' },
      ]);
      expect(res.body.data.operators).toContainEqual({ name: 'in', value_type: 'array' });
      expect((await call(gw, 'GET', '/analytics/meta', { key: plainKey })).status).toBe(403);
    });

    it('sums requests, spend, tokens and errors by day and model as the ledger has them', async () => {
      const res = await query({
        metrics: ['request_count', 'total_usage', 'error_count', 'total_tokens', 'error_rate'],
        dimensions: ['model'],
        granularity: 'day',
        time_range: { start: '2026-11-20T00:00:00Z', end: '2026-11-23T00:00:00Z' },
      });
      expect(res.status).toBe(200);
      const expected = sums(ledger, (row) => `${row.created_at.slice(0, 10)}T00:00:00.000Z|${row.model}`);
      expect(res.body.data.metadata).toEqual({ query_time_ms: expect.any(Number), row_count: expected.size, truncated: false });
      expect(res.body.data).not.toHaveProperty('warnings');
      for (const row of res.body.data.data) {
        const s = expected.get(`${row.date__day}|${row.model}`)!;
        expect(row).toEqual({
          date__day: row.date__day,
          model: row.model,
          request_count: s.requests,
          total_usage: s.cost,
          error_count: s.errors,
          total_tokens: s.prompt + s.completion,
          error_rate: s.errors / s.requests,
        });
      }
      // Ordered by day, then by the first metric, most first.
      expect(res.body.data.data.map((r: { date__day: string }) => r.date__day)).toEqual(
        [...res.body.data.data.map((r: { date__day: string }) => r.date__day)].sort(),
      );
    });

    it("reads latency and first-token quantiles by model from the sketches, as the ledger rows' times give them", async () => {
      const res = await query({
        metrics: ['latency_p50', 'latency_p95', 'first_token_p50', 'first_token_p95'],
        dimensions: ['model'],
        time_range: { start: '2026-11-20T00:00:00Z', end: '2026-11-23T00:00:00Z' },
      });
      expect(res.status).toBe(200);
      const sketch = (times: (number | null)[]) => {
        const counts = Array<number>(LATENCY_BUCKETS).fill(0);
        for (const ms of times) if (ms !== null) counts[bucketOf(ms)]! += 1;
        return counts;
      };
      // As the API rounds a rate: six significant digits.
      const read = (value: number | null) => (value === null ? null : Number(value.toPrecision(6)));
      for (const row of res.body.data.data) {
        const rows = ledger.filter((r) => r.model === row.model);
        const latency = sketch(rows.map((r) => r.latency_ms));
        const ttft = sketch(rows.map((r) => r.ttft_ms));
        expect(row).toEqual({
          model: row.model,
          latency_p50: read(quantileOf(latency, 0.5)),
          latency_p95: read(quantileOf(latency, 0.95)),
          first_token_p50: read(quantileOf(ttft, 0.5)),
          first_token_p95: read(quantileOf(ttft, 0.95)),
        });
      }
      expect(res.body.data.data.some((row: { latency_p50: number | null }) => row.latency_p50 !== null)).toBe(true);
    });

    it('filters, orders, limits and buckets by the hour', async () => {
      const res = await query({
        metrics: ['request_count', 'total_usage'],
        dimensions: ['api_key_id'],
        granularity: 'hour',
        filters: [{ field: 'provider', operator: 'in', value: ['alpha'] }],
        time_range: { start: '2026-11-20T10:00:00Z', end: '2026-11-22T00:00:00Z' },
      });
      const alpha = ledger.filter((row) => row.provider_name === 'alpha' && row.created_at < '2026-11-22');
      const expected = sums(alpha, (row) => `${row.created_at.slice(0, 13)}:00:00.000Z|${row.api_key_hash}`);
      expect(res.body.data.data.map((r: Record<string, unknown>) => [r.date__hour, r.api_key_id, r.request_count])).toEqual(
        // By the hour, then the most requests first, then by key.
        [...expected]
          .map(([id, s]) => [...id.split('|'), s.requests] as [string, string, number])
          .sort((x, y) => x[0].localeCompare(y[0]) || y[2] - x[2] || x[1].localeCompare(y[1])),
      );
      const top = await query({
        metrics: ['total_usage'],
        dimensions: ['model'],
        order_by: { field: 'request_count', direction: 'desc' },
        limit: 1,
        time_range: { start: '2026-11-20T00:00:00Z', end: '2026-11-23T00:00:00Z' },
      });
      expect(top.body.data.data).toEqual([{ model: 'sim/a', total_usage: sums(ledger, (row) => row.model).get('sim/a')!.cost }]);
      expect(top.body.data.metadata.truncated).toBe(true);
      const others = await query({
        metrics: ['request_count'],
        dimensions: ['api_key_id'],
        filters: [{ field: 'api_key_id', operator: 'neq', value: keys.a.hash }],
        time_range: { start: '2026-11-20T00:00:00Z', end: '2026-11-23T00:00:00Z' },
      });
      expect(others.body.data.data).toEqual([
        { api_key_id: keys.b.hash, request_count: ledger.filter((row) => row.api_key_hash === keys.b.hash).length },
      ]);
    });

    it('widens a time range to whole hours and says so; defaults to the last 30 days', async () => {
      const res = await query({ metrics: ['request_count'], time_range: { start: '2026-11-20T10:30:00Z', end: '2026-11-20T11:10:00Z' } });
      expect(res.body.data.data).toEqual([{ request_count: 4 }]);
      expect(res.body.data.warnings).toEqual([
        'time_range was widened to whole hours (2026-11-20T10:00:00.000Z to 2026-11-20T12:00:00.000Z): usage is counted by the hour',
      ]);
      expect((await query({ metrics: ['request_count'] })).body.data.data).toEqual([{ request_count: 7 }]);
    });

    it('refuses, naming the field, what the gateway does not record; and keys that are not management keys', async () => {
      const refusals: [unknown, string][] = [
        [
          { metrics: ['request_count', 'app_count'] },
          'metrics[1] "app_count" is not a metric this gateway records; it records request_count, ',
        ],
        [
          { metrics: ['request_count'], dimensions: ['country'] },
          'dimensions[0] "country" is not a dimension this gateway records; it records model, provider, api_key_id, workspace',
        ],
        [
          { metrics: ['request_count'], filters: [{ field: 'origin', operator: 'eq', value: 'x' }] },
          'filters[0].field "origin" is not a dimension this gateway records',
        ],
        [
          { metrics: ['request_count'], filters: [{ field: 'model', operator: 'gt', value: 'x' }] },
          'filters[0].operator "gt" is not offered',
        ],
        [
          { metrics: ['request_count'], filters: [{ field: 'model', operator: 'in', value: 'x' }] },
          'filters[0].value must be an array for operator in',
        ],
        [
          { metrics: ['request_count'], granularity: 'week' },
          'granularity "week" is not offered: usage is counted by the hour; use hour, day',
        ],
        [
          { metrics: ['request_count'], time_range: { start: '2026-11-20T00:00:00Z', end: '2026-11-19T00:00:00Z' } },
          'time_range.end must be after time_range.start',
        ],
        [
          { metrics: ['request_count'], time_range: { start: 'yesterday', end: '2026-11-19T00:00:00Z' } },
          'time_range.start must be a valid date-time',
        ],
        [
          { metrics: ['request_count'], order_by: { field: 'model', direction: 'asc' } },
          'order_by.field "model" must be a requested metric, request_count, a requested dimension, or date',
        ],
        [{ metrics: [] }, 'metrics must have at least 1 item'],
        [
          { metrics: ['request_count'], classifier_dimensions: { classifier_id: 'x' } },
          'classifier_dimensions is not offered: this gateway has no classifiers',
        ],
        [{ metrics: ['request_count'], metric: 'x' }, 'Request body has an unknown property "metric"'],
      ];
      for (const [body, message] of refusals) {
        const res = await query(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message).toContain(message);
      }
      expect((await query({ metrics: ['request_count'] }, plainKey)).status).toBe(403);
    });

    it("never shows another organization's usage", async () => {
      const now = new Date().toISOString();
      const otherWorkspace = '22222222-2222-4222-8222-222222222222';
      await gw.store.db
        .insertInto('workspaces')
        .values({ id: otherWorkspace, organization_id: 'org_other', name: 'Default', slug: 'default', is_default: 1, created_at: now })
        .execute();
      const other = await createApiKey(
        gw.store.db,
        { organizationId: 'org_other', workspaceId: otherWorkspace, name: 'Other mgmt', isManagement: true },
        now,
      );
      const theirs = await query(
        { metrics: ['request_count', 'total_usage'], time_range: { start: '2026-11-20T00:00:00Z', end: '2026-11-23T00:00:00Z' } },
        other.key,
      );
      expect(theirs.body.data.data).toEqual([{ request_count: 1, total_usage: 5 }]);
      const ours = await query({ metrics: ['total_usage'], time_range: { start: '2026-11-20T00:00:00Z', end: '2026-11-23T00:00:00Z' } });
      expect(ours.body.data.data).toEqual([{ total_usage: round(ledger.reduce((n, row) => n + row.total_cost, 0)) }]);
    });
  });
});
