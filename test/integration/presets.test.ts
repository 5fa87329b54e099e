import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const messages = [{ role: 'user', content: 'hello there' }];
const config = { model: 'sim/fast', temperature: 0.25, top_p: 0.5, max_tokens: 40, provider: { order: ['alpha'] } };

describe.each(testEngines)('presets on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let userKey: string;
  let otherKey: string;
  const as = (key: string) => ({
    get: (path: string) => call(gw, 'GET', path, { key }),
    post: (path: string, body: unknown) => call(gw, 'POST', path, { key, body }),
    patch: (path: string, body: unknown) => call(gw, 'PATCH', path, { key, body }),
    delete: (path: string) => call(gw, 'DELETE', path, { key }),
  });
  const admin = () => as(gw.managementKey);
  const upstreamBody = async () => (await readSimStats(sim.url)).lastRequestBody as Record<string, any>;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha'],
      [
        { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        { id: 'sim/other', endpoints: [{ provider: 'alpha', upstream: 'sim-other' }] },
      ],
    );
    gw = await startGateway(engine, { catalog });
    userKey = (await admin().post('/keys', { name: 'user' })).body.key;
    const now = new Date().toISOString();
    await gw.store.db
      .insertInto('organizations')
      .values({ id: 'org_other', name: 'Other', slug: 'other', is_default: 0, created_at: now })
      .execute();
    const workspace = '22222222-2222-4222-8222-222222222222';
    await gw.store.db
      .insertInto('workspaces')
      .values({ id: workspace, organization_id: 'org_other', name: 'Default', slug: 'default', is_default: 1, created_at: now })
      .execute();
    otherKey = (
      await createApiKey(gw.store.db, { organizationId: 'org_other', workspaceId: workspace, name: 'Other', isManagement: true }, now)
    ).key;
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  it('creates, reads, lists, updates with a new version, and deletes a preset', async () => {
    const created = await admin().post('/presets', { slug: 'crud', name: 'CRUD', description: 'd', system_prompt: 'Be brief.', config });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      slug: 'crud',
      name: 'CRUD',
      description: 'd',
      status: 'active',
      designated_version: { version: 1, config, system_prompt: 'Be brief.' },
    });
    expect(created.body.data.designated_version_id).toBe(created.body.data.designated_version.id);
    expect((await admin().post('/presets', { slug: 'crud', config })).status).toBe(409);

    const got = await as(userKey).get('/presets/crud');
    expect(got.body.data).toEqual(created.body.data);
    const listed = await as(userKey).get('/presets?limit=100');
    expect(listed.body.total_count).toBeGreaterThanOrEqual(1);
    expect(listed.body.data.map((p: { slug: string }) => p.slug)).toContain('crud');

    const updated = await admin().patch('/presets/crud', { name: 'Renamed', config: { ...config, temperature: 0.9 } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: 'Renamed',
      designated_version: { version: 2, system_prompt: 'Be brief.', config: { temperature: 0.9 } },
    });
    const renamedOnly = await admin().patch('/presets/crud', { description: null });
    expect(renamedOnly.body.data).toMatchObject({ description: null, designated_version: { version: 2 } });

    const versions = await as(userKey).get('/presets/crud/versions');
    expect(versions.body).toMatchObject({ total_count: 2, data: [{ version: 1 }, { version: 2 }] });
    expect((await as(userKey).get('/presets/crud/versions?offset=1&limit=1')).body.data.map((v: { version: number }) => v.version)).toEqual(
      [2],
    );
    expect((await as(userKey).get('/presets/crud/versions/1')).body.data.config).toEqual(config);
    expect((await as(userKey).get('/presets/crud/versions/3')).status).toBe(404);

    expect((await admin().delete('/presets/crud')).body).toEqual({ deleted: true });
    expect((await as(userKey).get('/presets/crud')).status).toBe(404);
    expect((await admin().delete('/presets/crud')).status).toBe(404);
  });

  it('creates a preset, then a new version, from a chat-completions body', async () => {
    const body = { model: 'sim/fast', temperature: 0.7, stream: true, messages: [{ role: 'system', content: 'Sys.' }, ...messages] };
    const first = await admin().post('/presets/from-chat/chat/completions', body);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      slug: 'from-chat',
      designated_version: { version: 1, system_prompt: 'Sys.', config: { model: 'sim/fast', temperature: 0.7 } },
    });
    expect(first.body.data.designated_version.config).not.toHaveProperty('stream');
    const second = await admin().post('/presets/from-chat/chat/completions', { ...body, temperature: 0.1 });
    expect(second.body.data.designated_version).toMatchObject({ version: 2, config: { temperature: 0.1 } });
  });

  it('lets only management keys change presets', async () => {
    expect((await as(userKey).post('/presets', { slug: 'nope', config })).status).toBe(403);
    expect((await as(userKey).post('/presets/nope/chat/completions', { messages })).status).toBe(403);
    await admin().post('/presets', { slug: 'guarded', config });
    expect((await as(userKey).patch('/presets/guarded', { name: 'x' })).status).toBe(403);
    expect((await as(userKey).delete('/presets/guarded')).status).toBe(403);
  });

  it('names the field and rule of an invalid preset', async () => {
    const bad = async (body: unknown) => (await admin().post('/presets', body)).body.error.message;
    expect(await bad({ slug: 'a/b', config })).toBe('slug must match the pattern ^[A-Za-z0-9][A-Za-z0-9._-]*$');
    expect(await bad({ slug: 'x', config: { temperature: 3 } })).toBe('config.temperature must be <= 2');
    expect(await bad({ slug: 'x', config: { messages } })).toBe('config has an unknown property "messages"');
    expect(await bad({ slug: 'x' })).toBe('config is required');
    expect(await bad({ slug: 'x', config: { model: '@preset/y' } })).toBe('config.model must name a model, not a preset');
    expect((await admin().get('/presets?limit=101')).body.error.message).toBe('query parameter limit must be <= 100');
  });

  it('hides presets from other organizations', async () => {
    await admin().post('/presets', { slug: 'private', config });
    const other = as(otherKey);
    expect((await other.get('/presets/private')).status).toBe(404);
    expect((await other.get('/presets/private/versions')).status).toBe(404);
    expect((await other.patch('/presets/private', { name: 'x' })).status).toBe(404);
    expect((await other.delete('/presets/private')).status).toBe(404);
    expect((await other.get('/presets')).body).toEqual({ data: [], total_count: 0 });
    const chat = await other.post('/chat/completions', { model: '@preset/private', messages });
    expect(chat.status).toBe(404);
    expect(chat.body.error.message).toBe('Preset private not found');
    // The same slug is free in the other organization.
    expect((await other.post('/presets', { slug: 'private', config })).status).toBe(201);
    expect((await admin().get('/presets/private')).body.data.designated_version.config).toEqual(config);
  });

  describe('applied to chat', () => {
    beforeAll(async () => {
      await admin().post('/presets', { slug: 'apply', system_prompt: 'Be brief.', config });
    });

    it('sends the preset’s model, parameters and system prompt upstream with @preset/<slug>', async () => {
      const res = await as(userKey).post('/chat/completions', { model: '@preset/apply', messages });
      expect(res.status).toBe(200);
      expect(res.body.model).toBe('sim/fast');
      const sent = await upstreamBody();
      expect(sent).toMatchObject({
        model: 'sim-model',
        temperature: 0.25,
        top_p: 0.5,
        messages: [{ role: 'system', content: 'Be brief.' }, ...messages],
      });
      expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(40);
    });

    it('lets the request’s own fields and system message win', async () => {
      const own = [{ role: 'system', content: 'Mine.' }, ...messages];
      const res = await as(userKey).post('/chat/completions', { model: '@preset/apply', temperature: 1.5, messages: own });
      expect(res.status).toBe(200);
      expect(await upstreamBody()).toMatchObject({ temperature: 1.5, top_p: 0.5, messages: own });
    });

    it('uses the model named with <model>@preset/<slug> and the preset field', async () => {
      expect((await as(userKey).post('/chat/completions', { model: 'sim/other@preset/apply', messages })).body.model).toBe('sim/other');
      expect(await upstreamBody()).toMatchObject({ model: 'sim-other', temperature: 0.25 });
      expect((await as(userKey).post('/chat/completions', { model: 'sim/other', preset: 'apply', messages })).body.model).toBe('sim/other');
      expect(await upstreamBody()).toMatchObject({ model: 'sim-other', top_p: 0.5 });
    });

    it('answers 404 for an unknown preset', async () => {
      const res = await as(userKey).post('/chat/completions', { model: '@preset/missing', messages });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('Preset missing not found');
    });

    it('applies a changed, a re-created or a deleted preset at once, though requests read presets from a cache', async () => {
      await admin().post('/presets', { slug: 'changing', config: { ...config, temperature: 0.1 } });
      expect((await as(userKey).post('/chat/completions', { model: '@preset/changing', messages })).status).toBe(200);
      expect(await upstreamBody()).toMatchObject({ temperature: 0.1 });

      await admin().patch('/presets/changing', { config: { ...config, temperature: 0.9 } });
      await as(userKey).post('/chat/completions', { model: '@preset/changing', messages });
      expect(await upstreamBody()).toMatchObject({ temperature: 0.9 });

      await admin().post('/presets/changing/chat/completions', { model: 'sim/other', temperature: 0.3, messages });
      expect((await as(userKey).post('/chat/completions', { model: '@preset/changing', messages })).body.model).toBe('sim/other');

      await admin().delete('/presets/changing');
      expect((await as(userKey).post('/chat/completions', { model: '@preset/changing', messages })).status).toBe(404);
    });
  });
});
