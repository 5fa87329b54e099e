import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const MODELS = [
  { id: 'sim/a', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.00001, completion: 0.00002 }] },
  { id: 'sim/b', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.00003, completion: 0.00004 }] },
];

const CODING = 'Why does this fail?\n```\nconst x = 1;\nx = 2;\n```';
const MATH = 'Solve the equation 3x + 5 = 20 for x';
const SMALL_TALK = 'Hello! How are you today?';
const TRANSLATION = 'Translate "good morning" into Japanese';

/**
 * Task classifications from real traffic through the simulator, every
 * request sampled: the pass classifies the samples' features into daily
 * counts, and the route's shares are checked against the ledger's rows.
 */
describe.each(testEngines)('task classifications on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let scopedKey: string;
  /** Each generation's id → prompt + completion tokens, from the ledger. */
  let tokensOf: Map<string, number>;
  const sent: { id: string; model: string; task: string }[] = [];
  const clock = testClock('2026-11-20T10:00:00.000Z');

  const chat = async (model: string, content: string, task: string, key = gw.managementKey) => {
    const res = await call(gw, 'POST', '/chat/completions', {
      key,
      body: { model, max_tokens: 20, messages: [{ role: 'user', content }] },
    });
    expect(res.status).toBe(200);
    sent.push({ id: res.body.id, model, task });
  };
  const get = (path: string, key = gw.managementKey) => call(gw, 'GET', path, { key });

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, {
      clock: clock.clock,
      catalog: simCatalog(sim.url, ['alpha'], MODELS),
      classifications: { rate: 1 },
    });
    await chat('sim/a', CODING, 'coding');
    await chat('sim/b', CODING, 'coding');
    await chat('sim/a', MATH, 'math');
    await chat('sim/a', SMALL_TALK, 'general');
    const ws = (await call(gw, 'POST', '/workspaces', { key: gw.managementKey, body: { name: 'Side', slug: 'side' } })).body.data.id;
    scopedKey = (
      await createApiKey(
        gw.store.db,
        { organizationId: gw.organizationId, workspaceId: ws, name: 'side admin', isManagement: true, managementScope: 'workspace' },
        new Date().toISOString(),
      )
    ).key;
    const workspaceKey = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'side', workspace_id: ws } })).body.key;
    await chat('sim/b', TRANSLATION, 'translation', workspaceKey);
    await gw.app.classifyTaskSamples();
    clock.set('2026-11-21T12:00:00.000Z');
    const rows = await gw.store.db
      .selectFrom('generations')
      .select(['id', 'tokens_prompt', 'tokens_completion'])
      .where('organization_id', '=', gw.organizationId)
      .execute();
    tokensOf = new Map(rows.map((row) => [row.id, row.tokens_prompt + row.tokens_completion]));
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('classifies the samples into daily counts and deletes them', async () => {
    expect(await gw.store.db.selectFrom('task_samples').selectAll().execute()).toEqual([]);
    const counts = await gw.store.db.selectFrom('task_usage_daily').select(['day', 'task', 'model', 'requests']).execute();
    expect(
      counts.map((c) => ({ ...c, requests: Number(c.requests) })).sort((a, b) => (a.task + a.model < b.task + b.model ? -1 : 1)),
    ).toEqual([
      { day: '2026-11-20', task: 'coding', model: 'sim/a', requests: 1 },
      { day: '2026-11-20', task: 'coding', model: 'sim/b', requests: 1 },
      { day: '2026-11-20', task: 'general', model: 'sim/a', requests: 1 },
      { day: '2026-11-20', task: 'math', model: 'sim/a', requests: 1 },
      { day: '2026-11-20', task: 'translation', model: 'sim/b', requests: 1 },
    ]);
  });

  it('gives each task’s share of the requests and tokens, its share in its macro-category, and its models', async () => {
    const res = await get('/classifications/task');
    expect(res.status).toBe(200);
    const tokens = (of: (s: (typeof sent)[number]) => boolean) => sent.filter(of).reduce((sum, s) => sum + tokensOf.get(s.id)!, 0);
    const all = tokens(() => true);
    const general = tokens((s) => s.task !== 'coding');
    const coding = tokens((s) => s.task === 'coding');
    const codingOn = (model: string) => tokens((s) => s.task === 'coding' && s.model === model);
    const { data } = res.body;
    expect(data.as_of).toBe('2026-11-20');
    expect(data.window_days).toBe(7);
    const codingItem = data.classifications[0];
    expect(codingItem).toEqual({
      tag: 'code:coding',
      display_name: 'Coding',
      macro_category: 'code',
      usage_share: 2 / 5,
      token_share: coding / all,
      category_usage_share: 1,
      category_token_share: 1,
      models: [
        { id: 'sim/a', tag_usage_share: 0.5, tag_token_share: codingOn('sim/a') / coding },
        { id: 'sim/b', tag_usage_share: 0.5, tag_token_share: codingOn('sim/b') / coding },
      ],
    });
    const math = data.classifications.find((item: { tag: string }) => item.tag === 'general:math');
    expect(math.usage_share).toBe(1 / 5);
    expect(math.category_usage_share).toBe(1 / 3);
    expect(math.category_token_share).toBeCloseTo(tokens((s) => s.task === 'math') / general, 12);
    expect(data.classifications.map((item: { tag: string }) => item.tag).sort()).toEqual([
      'code:coding',
      'general:chat',
      'general:math',
      'general:translation',
    ]);
    expect(data.macro_categories).toEqual([
      { key: 'general', label: 'General', usage_share: 3 / 5, token_share: general / all },
      { key: 'code', label: 'Code', usage_share: 2 / 5, token_share: coding / all },
    ]);
  });

  it('scopes the shares to a workspace management key’s workspace', async () => {
    const res = await get('/classifications/task', scopedKey);
    expect(res.body.data.classifications.map((item: { tag: string; usage_share: number }) => [item.tag, item.usage_share])).toEqual([
      ['general:translation', 1],
    ]);
  });

  it('reads the trailing window of completed days', async () => {
    clock.set('2026-11-22T12:00:00.000Z');
    const yesterdayOnly = await get('/classifications/task?window=1d');
    expect(yesterdayOnly.body.data).toEqual({ as_of: '2026-11-21', window_days: 1, classifications: [], macro_categories: [] });
    expect((await get('/classifications/task?window=90d')).body.data.classifications).toHaveLength(4);
  });

  it.each(['91d', '0d', '7', 'week'])('refuses window=%s with a 400 naming window', async (window) => {
    const res = await get(`/classifications/task?window=${window}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.message).toContain('window');
  });

  it('needs a key', async () => {
    expect((await call(gw, 'GET', '/classifications/task')).status).toBe(401);
  });
});
