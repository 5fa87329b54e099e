import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * Bring-your-own-key end to end: the /byok routes keep the key write-only and
 * sealed, a chat through the `openai` SDK reaches the simulator with the
 * workspace's own credential (the Authorization it received says so) and is
 * recorded as BYOK, a credential never serves another workspace, a refused
 * one falls back to the gateway's own, a rotation applies to the next
 * request, and GET /byok lists a workspace's credentials (the default
 * workspace's when none is named, as the reference's).
 */
const PRICES = { prompt: 0.001, completion: 0.002 };
const MODELS = [{ id: 'sim/chat', endpoints: [{ provider: 'alpha', upstream: 'sim-model', ...PRICES }] }];
const BYOK_KEY = 'sk-byok-alpha-0123456789abcdef';

describe.each(testEngines)('BYOK credentials on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let ours: string;
  let theirs: string;
  const admin = (method: string, path: string, body?: unknown) => call(gw, method, path, { key: gw.managementKey, body });

  /** A key of a workspace, and the SDK client for it (asking for service_metadata). */
  async function keyIn(workspaceId: string, name: string) {
    const made = (await admin('POST', '/keys', { name, workspace_id: workspaceId })).body;
    const client = new OpenAI({
      baseURL: gw.baseUrl,
      apiKey: made.key,
      maxRetries: 0,
      defaultHeaders: { 'x-service-metadata': 'enabled' },
    });
    return { key: made.key as string, hash: made.data.hash as string, client };
  }
  const chat = (client: OpenAI) =>
    client.chat.completions.create({ model: 'sim/chat', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] });
  const upstreamAuthorization = async () =>
    ((await readSimStats(sim.url)) as { lastRequestHeaders: Record<string, string> }).lastRequestHeaders.authorization;

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: simCatalog(sim.url, ['alpha'], MODELS) });
    ours = (await admin('POST', '/workspaces', { name: 'Ours', slug: 'ours' })).body.data.id;
    theirs = (await admin('POST', '/workspaces', { name: 'Theirs', slug: 'theirs' })).body.data.id;
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('keeps the key write-only and sealed, shows its ends, and wipes it on delete', async () => {
    const created = await admin('POST', '/byok', { provider: 'alpha', key: BYOK_KEY, name: 'Ours', workspace_id: ours });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      provider: 'alpha',
      name: 'Ours',
      label: 'sk-...cdef',
      workspace_id: ours,
      allowed_api_key_hashes: null,
      allowed_models: null,
      allowed_user_ids: null,
      is_fallback: false,
      sort_order: 0,
      disabled: false,
    });
    const id = created.body.data.id as string;
    const listed = await admin('GET', `/byok?workspace_id=${ours}`);
    expect(listed.body).toMatchObject({ total_count: 1, data: [{ id }] });
    for (const answer of [created, listed, await admin('GET', `/byok/${id}`)]) expect(JSON.stringify(answer.body)).not.toContain(BYOK_KEY);
    const row = await gw.store.db.selectFrom('byok_credentials').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(BYOK_KEY);
    expect(JSON.stringify(row)).not.toContain('0123456789abcdef');

    const deleted = await admin('DELETE', `/byok/${id}`);
    expect(deleted.body).toEqual({ deleted: true });
    const wiped = await gw.store.db.selectFrom('byok_credentials').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(wiped).toMatchObject({ sealed_key: null, wrapped_data_key: null });
    expect((await admin('GET', `/byok/${id}`)).status).toBe(404);
  });

  it('refuses bad input naming the field', async () => {
    const unknown = await admin('POST', '/byok', { provider: 'nowhere', key: 'sk-x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('provider nowhere is not a provider this gateway knows: one of alpha');
    const empty = await admin('POST', '/byok', { provider: 'alpha', key: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/key/);
    const huge = await admin('POST', '/byok', { provider: 'alpha', key: 'k'.repeat(100 * 1024) });
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toMatch(/key/);
    const stranger = await admin('POST', '/byok', { provider: 'alpha', key: 'sk-x', allowed_api_key_hashes: ['a'.repeat(64)] });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toBe(`allowed_api_key_hashes: ${'a'.repeat(64)} is not the hash of a key of this organization`);
    const elsewhere = await admin('POST', '/byok', {
      provider: 'alpha',
      key: 'sk-x',
      workspace_id: '00000000-0000-4000-8000-0000000000ff',
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.message).toMatch(/^workspace_id /);
  });

  it('sends a chat through the openai SDK on the workspace’s credential, records it as BYOK, and never lends it to another workspace', async () => {
    const credential = (await admin('POST', '/byok', { provider: 'alpha', key: BYOK_KEY, workspace_id: ours })).body.data;
    const mine = await keyIn(ours, 'ours');
    const other = await keyIn(theirs, 'theirs');

    const answer = await chat(mine.client);
    expect(await upstreamAuthorization()).toBe(`Bearer ${BYOK_KEY}`);
    const metadata = (answer as unknown as { service_metadata: { is_byok: boolean; attempts: { is_byok: boolean }[] } }).service_metadata;
    expect(metadata.is_byok).toBe(true);
    expect(metadata.attempts).toEqual([expect.objectContaining({ status: 200, is_byok: true })]);
    const generation = await call(gw, 'GET', `/generation?id=${answer.id}`, { key: mine.key });
    expect(generation.body.data.is_byok).toBe(true);
    const row = await gw.store.db.selectFrom('generations').selectAll().where('id', '=', answer.id).executeTakeFirstOrThrow();
    expect(row.is_byok).toBe(1);
    // The provider bills the organization: no charge (the fee rate is 0), the endpoint's price counted as BYOK usage.
    expect(row.total_cost).toBe(0);
    expect(row.byok_cost).toBeGreaterThan(0);
    const key = (await call(gw, 'GET', '/key', { key: mine.key })).body.data;
    expect(key).toMatchObject({ usage: 0, byok_usage: row.byok_cost, byok_usage_daily: row.byok_cost });

    // Streamed too: the last chunk's service_metadata says so.
    const stream = await mine.client.chat.completions.create({
      model: 'sim/chat',
      max_tokens: 10,
      stream: true,
      messages: [{ role: 'user', content: 'hello' }],
    });
    let last: unknown;
    for await (const chunk of stream) last = chunk;
    expect(await upstreamAuthorization()).toBe(`Bearer ${BYOK_KEY}`);
    expect((last as { service_metadata?: { is_byok: boolean } }).service_metadata?.is_byok).toBe(true);

    // Another workspace's key goes out on the gateway's own credential.
    const theirsAnswer = await chat(other.client);
    expect(await upstreamAuthorization()).toBe('Bearer sim-key');
    expect((theirsAnswer as unknown as { service_metadata: { is_byok: boolean } }).service_metadata.is_byok).toBe(false);
    await admin('DELETE', `/byok/${credential.id}`);
  });

  it('falls back to the gateway’s own credential when the provider refuses the BYOK one', async () => {
    const credential = (await admin('POST', '/byok', { provider: 'alpha', key: 'sk-sim-revoked-1234', workspace_id: ours })).body.data;
    const mine = await keyIn(ours, 'fallback');
    const answer = await chat(mine.client);
    const metadata = (answer as unknown as { service_metadata: { is_byok: boolean; attempts: { status: number; is_byok: boolean }[] } })
      .service_metadata;
    expect(metadata.attempts.map((a) => [a.status, a.is_byok])).toEqual([
      [401, true],
      [200, false],
    ]);
    expect(metadata.is_byok).toBe(false);
    expect(await upstreamAuthorization()).toBe('Bearer sim-key');
    await admin('DELETE', `/byok/${credential.id}`);
  });

  it('does not fall back to the gateway’s own credential when the organization said not to', async () => {
    expect((await admin('PATCH', '/organization/settings', { byok_fallback: false })).body.data.byok_fallback).toBe(false);
    // Creating the credential reloads this instance's credentials, the organization's setting with them.
    const credential = (await admin('POST', '/byok', { provider: 'alpha', key: 'sk-sim-revoked-5678', workspace_id: ours })).body.data;
    const mine = await keyIn(ours, 'no fallback');
    const refused = await call(gw, 'POST', '/chat/completions', {
      key: mine.key,
      body: { model: 'sim/chat', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] },
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error.metadata.attempts).toEqual([expect.objectContaining({ provider: 'alpha', is_byok: true })]);
    expect(await upstreamAuthorization()).toBe('Bearer sk-sim-revoked-5678');
    await admin('PATCH', '/organization/settings', { byok_fallback: true });
    await admin('DELETE', `/byok/${credential.id}`);
  });

  it('uses an organization-wide credential in every workspace, and a rotated key from the next request on', async () => {
    const credential = (await admin('POST', '/byok', { provider: 'alpha', key: 'sk-org-wide-key-1', workspace_id: null })).body.data;
    expect(credential.workspace_id).toBeNull();
    const other = await keyIn(theirs, 'org-wide');
    await chat(other.client);
    expect(await upstreamAuthorization()).toBe('Bearer sk-org-wide-key-1');
    const rotated = await admin('PATCH', `/byok/${credential.id}`, { key: 'sk-org-wide-key-2' });
    expect(rotated.body.data.label).toBe('sk-...ey-2');
    await chat(other.client);
    expect(await upstreamAuthorization()).toBe('Bearer sk-org-wide-key-2');
    await admin('PATCH', `/byok/${credential.id}`, { disabled: true });
    await chat(other.client);
    expect(await upstreamAuthorization()).toBe('Bearer sim-key');
    await admin('DELETE', `/byok/${credential.id}`);
  });

  it('applies the allowed key list: a key not on it goes out on the gateway’s credential', async () => {
    const allowed = await keyIn(ours, 'allowed');
    const notAllowed = await keyIn(ours, 'not allowed');
    const credential = (
      await admin('POST', '/byok', {
        provider: 'alpha',
        key: 'sk-only-for-one',
        workspace_id: ours,
        allowed_api_key_hashes: [allowed.hash],
      })
    ).body.data;
    await chat(notAllowed.client);
    expect(await upstreamAuthorization()).toBe('Bearer sim-key');
    await chat(allowed.client);
    expect(await upstreamAuthorization()).toBe('Bearer sk-only-for-one');
    await admin('DELETE', `/byok/${credential.id}`);
  });

  it('lists the default workspace’s credentials when no workspace_id is given, and a scoped key only its own', async () => {
    const defaultId = (await admin('GET', '/workspaces/default')).body.data.id as string;
    const made = async (workspaceId: string | null | undefined, name: string) =>
      (
        await admin('POST', '/byok', {
          provider: 'alpha',
          key: `sk-${name}-key`,
          name,
          ...(workspaceId !== undefined ? { workspace_id: workspaceId } : {}),
        })
      ).body.data.id as string;
    const inDefault = await made(undefined, 'default');
    const inOurs = await made(ours, 'ours');
    const orgWide = await made(null, 'organization');
    const ids = async (path: string, key = gw.managementKey) => {
      const answer = await call(gw, 'GET', path, { key });
      expect(answer.status).toBe(200);
      expect(answer.body.total_count).toBe(answer.body.data.length);
      return (answer.body.data as { id: string }[]).map((c) => c.id).sort();
    };

    // The default workspace's, and the organization's, which serve it too; not another workspace's.
    expect(await ids('/byok')).toEqual([inDefault, orgWide].sort());
    expect(await ids(`/byok?workspace_id=${defaultId}`)).toEqual([inDefault, orgWide].sort());
    expect(await ids(`/byok?workspace_id=${ours}`)).toEqual([inOurs, orgWide].sort());
    expect(await ids('/byok?workspace_id=ours')).toEqual([inOurs, orgWide].sort());

    // A management key scoped to a workspace: its own credentials only, whatever it asks.
    const scoped = (
      await createApiKey(
        gw.store.db,
        { organizationId: gw.organizationId, workspaceId: ours, name: 'ours manager', isManagement: true, managementScope: 'workspace' },
        new Date().toISOString(),
      )
    ).key;
    expect(await ids('/byok', scoped)).toEqual([inOurs]);
    expect(await ids(`/byok?workspace_id=${ours}`, scoped)).toEqual([inOurs]);
    const elsewhere = await call(gw, 'GET', `/byok?workspace_id=${defaultId}`, { key: scoped });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.message).toMatch(/^workspace_id /);
    for (const id of [inDefault, inOurs, orgWide]) await admin('DELETE', `/byok/${id}`);
  });
});
