import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

// At these prices a request (max_tokens 20) can cost $0.028 and costs about $0.011: a budget of $0.05 is spent by the six
// requests a key makes before the guardrail is assigned (reservations never let a request spend past a budget).
const BUDGET = { limit_usd: 0.05, reset_interval: 'daily' };

describe.each(testEngines)('guardrail budgets on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const time = testClock('2026-11-21T12:00:00.000Z');
  const admin = (method: string, path: string, body?: unknown) =>
    call(gw, method, path, { key: gw.managementKey, ...(body !== undefined ? { body } : {}) });
  const chat = (key: string) =>
    call(gw, 'POST', '/chat/completions', {
      key,
      body: { model: 'sim/fast', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] },
    });
  const spend = async (key: string) => {
    for (let i = 0; i < 6; i++) expect((await chat(key)).status).toBe(200);
  };
  const newKey = async (name: string) => (await admin('POST', '/keys', { name })).body as { key: string; data: { hash: string } };
  const guardrail = async (name: string, fields: Record<string, unknown>) =>
    (await admin('POST', '/guardrails', { name, ...fields })).body.data.id as string;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha'],
      [{ id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.001, completion: 0.001 }] }],
    );
    gw = await startGateway(engine, { catalog, clock: time.clock });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it("refuses a key whose guardrail's daily budget is spent with 403 naming the budget, and serves it again the next UTC day", async () => {
    time.set('2026-11-21T12:00:00.000Z');
    const key = await newKey('budgeted');
    const other = await newKey('unbudgeted');
    await spend(key.key);
    const id = await guardrail('Key budget', BUDGET);
    await admin('POST', `/guardrails/${id}/assignments/keys`, { key_hashes: [key.data.hash] });

    const refused = await chat(key.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(
      /^Request blocked by guardrail Key budget: its budget of \$0\.05 per day is spent by this key/,
    );
    expect(refused.body.error.metadata).toMatchObject({
      guardrail_id: id,
      guardrail_scope: 'api-key',
      budget_scope: 'api_key',
      limit_usd: 0.05,
      reset_interval: 'daily',
      resets_at: '2026-11-22T00:00:00.000Z',
    });
    expect(refused.body.error.metadata.spend_usd).toBeGreaterThan(0.05);
    // Only the governed key is refused.
    expect((await chat(other.key)).status).toBe(200);

    time.set('2026-11-22T00:00:01.000Z');
    expect((await chat(key.key)).status).toBe(200);
  });

  it('counts a member guardrail against every key the member created, and lifts the refusal when the budget grows', async () => {
    time.set('2026-11-23T12:00:00.000Z');
    const first = await newKey('first');
    const second = await newKey('second');
    const owner = (await admin('GET', '/organization/members')).body.data[0].id as string;
    await spend(first.key);
    const id = await guardrail('Member budget', BUDGET);
    await admin('POST', `/guardrails/${id}/assignments/members`, { member_user_ids: [owner] });

    const refused = await chat(second.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.metadata).toMatchObject({ guardrail_id: id, guardrail_scope: 'member', budget_scope: 'member' });

    await admin('PATCH', `/guardrails/${id}`, { limit_usd: 1 });
    expect((await chat(second.key)).status).toBe(200);
    await admin('DELETE', `/guardrails/${id}`);
  });

  it("checks a workspace guardrail against the member's aggregate first, and a lifetime budget never resets", async () => {
    time.set('2026-11-24T12:00:00.000Z');
    // A new key of a member whose earlier keys (the tests above) already spent more than the lifetime budget.
    const key = await newKey('workspace');
    const workspace = (await admin('GET', `/keys/${key.data.hash}`)).body.data.workspace_id as string;
    const id = await guardrail('Workspace budget', { limit_usd: 0.000001 });
    await admin('POST', `/guardrails/${id}/assignments/workspaces`, { workspace_ids: [workspace] });

    const refused = await chat(key.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.metadata).toMatchObject({
      guardrail_scope: 'workspace',
      budget_scope: 'workspace_default_member',
      reset_interval: null,
      resets_at: null,
    });
    time.set('2027-01-01T00:00:00.000Z');
    expect((await chat(key.key)).status).toBe(403);
    await admin('DELETE', `/guardrails/${id}`);
    expect((await chat(key.key)).status).toBe(200);
  });
});
