import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * A key minted by the PKCE flow (spec 4.5) is never more than the key that
 * asked for it: its limit is at most what is left of the creator's, it expires
 * no later, it lives in the creator's workspace and is never a management
 * key; a disabled, expired or spent creator mints nothing, whether it is so
 * when the code is created or becomes so before the exchange.
 */
describe.each(testEngines)('PKCE keys bounded by their creator on $name', (engine) => {
  const time = testClock();
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha'],
      [{ id: 'sim/chat', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.00001, completion: 0.00001 }] }],
    );
    gw = await startGateway(engine, { catalog, clock: time.clock });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const newKey = async (body: Record<string, unknown> = {}) => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'creator', ...body } });
    expect(created.status).toBe(201);
    return { key: created.body.key as string, hash: created.body.data.hash as string };
  };
  const createCode = (key: string, body: Record<string, unknown> = {}) =>
    call(gw, 'POST', '/auth/keys/code', { key, body: { callback_url: 'https://app.example/cb', ...body } });
  const exchange = (code: string) => call(gw, 'POST', '/auth/keys', { body: { code } });
  const mint = async (key: string, body: Record<string, unknown> = {}) => {
    const code = await createCode(key, body);
    expect(code.status).toBe(200);
    const exchanged = await exchange(code.body.data.id);
    expect(exchanged.status).toBe(200);
    return (await call(gw, 'GET', '/key', { key: exchanged.body.key })).body.data;
  };
  const patch = (hash: string, body: Record<string, unknown>) => call(gw, 'PATCH', `/keys/${hash}`, { key: gw.managementKey, body });
  /** Spends through a real chat, then lowers the key's limit to exactly what it spent: a spent limit. */
  const spendAll = async (creator: { key: string; hash: string }) => {
    const chat = await call(gw, 'POST', '/chat/completions', {
      key: creator.key,
      body: { model: 'sim/chat', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(chat.status).toBe(200);
    const usage = (await call(gw, 'GET', `/keys/${creator.hash}`, { key: gw.managementKey })).body.data.usage;
    expect(usage).toBeGreaterThan(0);
    expect((await patch(creator.hash, { limit: usage })).body.data.limit_remaining).toBe(0);
  };
  const refusedToMint = (res: { status: number; body: any }, why: string) => {
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: 403, message: expect.stringContaining(`${why}: it cannot create another key`) });
  };

  it('refuses a code to a key whose limit is spent', async () => {
    const creator = await newKey();
    await spendAll(creator);
    refusedToMint(await createCode(creator.key), 'This API key has spent its limit');
  });

  it('refuses the exchange once the creator spent its limit after creating the code', async () => {
    const creator = await newKey();
    const code = await createCode(creator.key);
    expect(code.status).toBe(200);
    await spendAll(creator);
    refusedToMint(await exchange(code.body.data.id), 'The API key that created this authorization code has spent its limit');
  });

  it('refuses the exchange once the creator is disabled or deleted', async () => {
    const disabled = await newKey();
    const first = await createCode(disabled.key);
    await patch(disabled.hash, { disabled: true });
    refusedToMint(await exchange(first.body.data.id), 'The API key that created this authorization code is disabled');

    const deleted = await newKey();
    const second = await createCode(deleted.key);
    expect((await call(gw, 'DELETE', `/keys/${deleted.hash}`, { key: gw.managementKey })).status).toBe(200);
    refusedToMint(await exchange(second.body.data.id), 'The API key that created this authorization code no longer exists');
  });

  it('refuses the exchange once the creator has expired, and the expired creator a code', async () => {
    const creator = await newKey({ expires_at: new Date(time.clock().getTime() + 60_000).toISOString() });
    const code = await createCode(creator.key);
    expect(code.status).toBe(200);
    time.advance(61_000);
    refusedToMint(await exchange(code.body.data.id), 'The API key that created this authorization code has expired');
    expect((await createCode(creator.key)).status).toBe(401);
  });

  it('refuses a limit above what is left of the creator’s, naming limit, at the code', async () => {
    const creator = await newKey({ limit: 1 });
    const res = await createCode(creator.key, { limit: 1000 });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 400, message: 'limit must be at most 1, what is left of the limit of the key creating it' });
  });

  it('refuses the exchange when the creator has less left than the code asked', async () => {
    const creator = await newKey({ limit: 1 });
    const code = await createCode(creator.key, { limit: 0.75 });
    expect(code.status).toBe(200);
    await patch(creator.hash, { limit: 0.5 });
    const res = await exchange(code.body.data.id);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('limit must be at most 0.5, what is left of the limit of the key creating it');
  });

  it('mints at most what is left: all of it when no limit was asked, what was asked otherwise', async () => {
    const creator = await newKey({ limit: 1 });
    expect(await mint(creator.key)).toMatchObject({ limit: 1, limit_remaining: 1, limit_reset: null, is_management_key: false });
    expect(await mint(creator.key, { limit: 0.25 })).toMatchObject({ limit: 0.25 });
    // A management key mints an ordinary key.
    expect(await mint(gw.managementKey)).toMatchObject({ is_management_key: false, limit: null });
  });

  it('refuses a limit that refills faster than the creator’s, naming usage_limit_type', async () => {
    const creator = await newKey({ limit: 1 });
    const res = await createCode(creator.key, { limit: 1, usage_limit_type: 'daily' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('usage_limit_type must not reset more often than the limit of the key creating it (never)');
  });

  it('never expires later than the creator: its expiry when none was asked, 400 naming expires_at for a later one', async () => {
    const expiresAt = new Date(time.clock().getTime() + 3_600_000).toISOString();
    const creator = await newKey({ expires_at: expiresAt });
    expect((await mint(creator.key)).expires_at).toBe(expiresAt);
    const later = await createCode(creator.key, { expires_at: '2099-01-01T00:00:00Z' });
    expect(later.status).toBe(400);
    expect(later.body.error.message).toBe(`expires_at must be no later than ${expiresAt}, when the key creating it expires`);
  });

  it('mints into the creator’s workspace, and refuses another workspace_id', async () => {
    const workspace = randomUUID();
    await gw.store.db
      .insertInto('workspaces')
      .values({
        id: workspace,
        organization_id: gw.organizationId,
        name: 'Team',
        slug: 'team',
        is_default: 0,
        created_at: time.clock().toISOString(),
      })
      .execute();
    const creator = await newKey({ workspace_id: workspace });
    expect((await mint(creator.key)).workspace_id).toBe(workspace);
    const elsewhere = await newKey();
    const res = await createCode(elsewhere.key, { workspace_id: workspace });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^workspace_id must be [0-9a-f-]{36}, the workspace of the key creating the code$/);
  });
});
