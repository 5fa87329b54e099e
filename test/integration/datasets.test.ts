import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { RELATIVE_ERROR } from '../../src/datasets/cost-sketch.js';
import { foldSessionCosts } from '../../src/datasets/session-cost-folds.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { appNumber } from '../../src/store/app-identity.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const MODELS = [
  { id: 'sim/a', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.00001, completion: 0.00002 }] },
  { id: 'sim/b', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.00003, completion: 0.00004 }] },
];

const ALPHA = { 'http-referer': 'https://alpha.example/chat', 'x-title': 'Alpha App' };
const BETA = { 'http-referer': 'https://beta.example:8443/' };
const weatherTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'The weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

interface LedgerRow {
  model: string;
  origin: string | null;
  session_id: string | null;
  total_cost: number;
  tokens_prompt: number;
  tokens_completion: number;
  created_at: string;
  finish_reason: string | null;
  workspace_id: string;
}

/**
 * The datasets from real traffic through the simulator: every figure is
 * checked against the ledger's own rows, summed here by the test.
 */
describe.each(testEngines)('datasets on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let ledger: LedgerRow[];
  let scopedKey: string;
  let workspaceKey: string;
  const clock = testClock('2026-11-20T10:00:00.000Z');

  const chat = async (model: string, headers: Record<string, string>, extra: Record<string, unknown> = {}, key = gw.managementKey) => {
    const res = await call(gw, 'POST', '/chat/completions', {
      key,
      headers,
      body: { model, max_tokens: 20, messages: [{ role: 'user', content: 'hello there, how are you today?' }], ...extra },
    });
    expect(res.status).toBe(200);
  };
  const get = (path: string, key = gw.managementKey) => call(gw, 'GET', path, { key });
  const tokens = (rows: LedgerRow[]) => rows.reduce((sum, row) => sum + row.tokens_prompt + row.tokens_completion, 0);

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { clock: clock.clock, catalog: simCatalog(sim.url, ['alpha'], MODELS) });
    // Day 1 (2026-11-20): alpha's session s1 of three turns, s2 of one; beta's s3; a request of no app; a tool call.
    for (const _ of [1, 2, 3]) await chat('sim/a', ALPHA, { session_id: 's1' });
    await chat('sim/a', ALPHA, { session_id: 's2', max_tokens: 5 });
    await chat('sim/b', BETA, { session_id: 's3' });
    await chat('sim/b', {});
    await chat('sim/a', ALPHA, { tools: [weatherTool], tool_choice: 'required' });
    // A workspace with its own scoped management key and traffic: its key sees only that.
    const ws = (await call(gw, 'POST', '/workspaces', { key: gw.managementKey, body: { name: 'Side', slug: 'side' } })).body.data.id;
    scopedKey = (
      await createApiKey(
        gw.store.db,
        { organizationId: gw.organizationId, workspaceId: ws, name: 'side admin', isManagement: true, managementScope: 'workspace' },
        new Date().toISOString(),
      )
    ).key;
    workspaceKey = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'side', workspace_id: ws } })).body.key;
    await chat('sim/b', { 'x-title': 'Side Tool' }, { session_id: 'side-1' }, workspaceKey);
    // Day 2: beta again.
    clock.set('2026-11-21T09:00:00.000Z');
    await chat('sim/b', BETA, { session_id: 's4' });
    clock.set('2026-11-22T12:00:00.000Z');
    // As the server's fold does every ten minutes: session-cost reads the folded days only.
    await foldSessionCosts(gw.store, clock.clock());
    ledger = (await gw.store.db
      .selectFrom('generations')
      .select([
        'model',
        'origin',
        'session_id',
        'total_cost',
        'tokens_prompt',
        'tokens_completion',
        'created_at',
        'finish_reason',
        'workspace_id',
      ])
      .where('organization_id', '=', gw.organizationId)
      .execute()) as LedgerRow[];
    expect(ledger).toHaveLength(9);
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  const fromAlpha = (row: LedgerRow) => row.origin === ALPHA['http-referer'];
  const fromBeta = (row: LedgerRow) => row.origin === BETA['http-referer'];

  it('ranks apps by tokens with absolute ranks, named by X-Title or the referer host', async () => {
    const res = await get('/datasets/app-rankings');
    expect(res.status).toBe(200);
    const alpha = ledger.filter(fromAlpha);
    const beta = ledger.filter(fromBeta);
    const side = ledger.filter((row) => row.session_id === 'side-1');
    const expected = [
      {
        app_id: appNumber('alpha-example'),
        app_name: 'Alpha App',
        app_slug: 'alpha-example',
        total_tokens: String(tokens(alpha)),
        total_requests: 5,
      },
      {
        app_id: appNumber('beta-example-8443'),
        app_name: 'beta.example:8443',
        app_slug: 'beta-example-8443',
        total_tokens: String(tokens(beta)),
        total_requests: 2,
      },
      {
        app_id: appNumber('side-tool'),
        app_name: 'Side Tool',
        app_slug: 'side-tool',
        total_tokens: String(tokens(side)),
        total_requests: 1,
      },
    ]
      .sort((a, b) => Number(b.total_tokens) - Number(a.total_tokens))
      .map((app, i) => ({ rank: i + 1, ...app }));
    expect(res.body.data).toEqual(expected);
    expect(res.body.meta).toEqual({ as_of: '2026-11-22T12:00:00.000Z', version: 'v1', start_date: '2026-10-22', end_date: '2026-11-21' });

    const paged = await get('/datasets/app-rankings?offset=1&limit=1');
    expect(paged.body.data).toEqual([expected[1]]);
    const dayOne = await get('/datasets/app-rankings?start_date=2026-11-20&end_date=2026-11-20');
    expect(dayOne.body.data.find((app: { app_slug: string }) => app.app_slug === 'beta-example-8443').total_requests).toBe(1);
  });

  it('ranks trending apps by growth over the three periods before, leaving out the apps that did not grow', async () => {
    // One day's window (11-21) against 11-18..11-20: beta grew by its 11-21 tokens less a third of 11-20's; alpha did not (none on 11-21).
    const res = await get('/datasets/app-rankings?sort=trending&start_date=2026-11-21&end_date=2026-11-21');
    expect(res.status).toBe(200);
    const beta = ledger.filter(fromBeta);
    expect(tokens(beta.filter((r) => r.created_at >= '2026-11-21'))).toBeGreaterThan(
      tokens(beta.filter((r) => r.created_at < '2026-11-21')) / 3,
    );
    expect(res.body.data.map((app: { app_slug: string }) => app.app_slug)).toEqual(['beta-example-8443']);
    expect(res.body.data[0].rank).toBe(1);
  });

  it('scopes every dataset to a workspace management key’s own workspace', async () => {
    const apps = await get('/datasets/app-rankings', scopedKey);
    expect(apps.body.data.map((app: { app_slug: string }) => app.app_slug)).toEqual(['side-tool']);
    const models = await get('/datasets/rankings-daily?start_date=2026-11-20&end_date=2026-11-21', scopedKey);
    expect(models.body.data).toEqual([
      { date: '2026-11-20', model_permaslug: 'sim/b', total_tokens: String(tokens(ledger.filter((r) => r.session_id === 'side-1'))) },
    ]);
    const sessions = await get('/datasets/session-cost', scopedKey);
    expect(sessions.body.data.map((cell: { app_slug: string }) => cell.app_slug)).toEqual(['side-tool']);
  });

  it('lists each day’s models by tokens, by week or month, and by modality', async () => {
    const res = await get('/datasets/rankings-daily?start_date=2026-11-20&end_date=2026-11-21');
    expect(res.status).toBe(200);
    const day = (d: string, model: string) => tokens(ledger.filter((r) => r.created_at.startsWith(d) && r.model === model));
    const dayOne = [
      { date: '2026-11-20', model_permaslug: 'sim/a', total_tokens: String(day('2026-11-20', 'sim/a')) },
      { date: '2026-11-20', model_permaslug: 'sim/b', total_tokens: String(day('2026-11-20', 'sim/b')) },
    ].sort((a, b) => Number(b.total_tokens) - Number(a.total_tokens));
    expect(res.body.data).toEqual([
      ...dayOne,
      { date: '2026-11-21', model_permaslug: 'sim/b', total_tokens: String(day('2026-11-21', 'sim/b')) },
    ]);

    const month = await get('/datasets/rankings-daily?start_date=2026-11-20&end_date=2026-11-21&period=month');
    expect(month.body.data.map((row: { date: string }) => row.date)).toEqual(['2026-11-01', '2026-11-01']);
    const week = await get('/datasets/rankings-daily?start_date=2026-11-20&end_date=2026-11-21&period=week');
    expect(week.body.data.map((row: { date: string }) => row.date)).toEqual(['2026-11-16', '2026-11-16']);

    const tools = await get('/datasets/rankings-daily?start_date=2026-11-20&end_date=2026-11-21&modality=tool_calling');
    expect(ledger.filter((r) => r.finish_reason === 'tool_calls').map((r) => r.model)).toEqual(['sim/a']);
    expect(tools.body.data).toEqual([{ date: '2026-11-20', model_permaslug: 'sim/a', total_tokens: String(day('2026-11-20', 'sim/a')) }]);
    const text = await get('/datasets/rankings-daily?start_date=2026-11-20&end_date=2026-11-21&modality=text');
    expect(text.body.data).toEqual(res.body.data);
    const audio = await get('/datasets/rankings-daily?start_date=2026-11-20&end_date=2026-11-21&modality=audio');
    expect(audio.body.data).toEqual([]);
  });

  it('gives the median cost per session by app, model and turn range, within the sketch’s error of the exact one', async () => {
    const cost = (session: string) => ledger.filter((r) => r.session_id === session).reduce((sum, r) => sum + r.total_cost, 0);
    const res = await get('/datasets/session-cost');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ as_of: '2026-11-22T12:00:00.000Z', version: 'v1', window_days: 30, window_end_date: '2026-11-21' });
    const exact = [
      ['alpha-example', 'Alpha App', 'sim/a', '1-turn', cost('s2')],
      ['alpha-example', 'Alpha App', 'sim/a', '2-9-turns', cost('s1')],
      // s3 and s4: two sessions, the median is their mean.
      ['beta-example-8443', 'beta.example:8443', 'sim/b', '1-turn', (cost('s3') + cost('s4')) / 2],
      ['side-tool', 'Side Tool', 'sim/b', '1-turn', cost('side-1')],
    ] as const;
    expect(res.body.data).toHaveLength(exact.length);
    exact.forEach(([app_slug, app_name, model_permaslug, turn_range, median], i) => {
      const { median_session_cost_usd, ...cell } = res.body.data[i];
      expect(cell).toEqual({ app_slug, app_name, model_permaslug, turn_range });
      expect(median).toBeGreaterThan(0);
      expect(Math.abs(median_session_cost_usd - median)).toBeLessThanOrEqual(median * RELATIVE_ERROR);
    });
    const filtered = await get('/datasets/session-cost?app_slug=alpha-example&turn_range=2-9-turns');
    expect(filtered.body.data.map((cell: { turn_range: string }) => cell.turn_range)).toEqual(['2-9-turns']);
    expect(
      (await get('/datasets/session-cost?model=sim/b&offset=1&limit=1')).body.data.map((c: { app_slug: string }) => c.app_slug),
    ).toEqual(['side-tool']);
  });

  it.each([
    ['/datasets/app-rankings?sort=newest', 'sort'],
    ['/datasets/app-rankings?limit=101', 'limit'],
    ['/datasets/app-rankings?category=coding', 'category'],
    ['/datasets/app-rankings?end_date=2026-11-23', 'end_date'],
    ['/datasets/app-rankings?end_date=2024-12-31', 'end_date'],
    ['/datasets/app-rankings?end_date=2026-02-30', 'end_date'],
    ['/datasets/app-rankings?start_date=2026-11-21&end_date=2026-11-20', 'start_date'],
    ['/datasets/rankings-daily?period=year', 'period'],
    ['/datasets/rankings-daily?modality=video', 'modality'],
    ['/datasets/rankings-daily?context_bucket=1K', 'context_bucket'],
    ['/datasets/session-cost?turn_range=3-turns', 'turn_range'],
    ['/datasets/session-cost?offset=5001', 'offset'],
  ])('refuses %s with a 400 naming %s', async (path, field) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.message).toContain(field);
  });

  it('needs a key', async () => {
    expect((await call(gw, 'GET', '/datasets/app-rankings')).status).toBe(401);
  });
});
