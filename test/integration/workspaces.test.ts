import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { addMember, removeMember } from '../../src/store/repositories/members.js';
import { newUserId } from '../../src/util/ids.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

const OTHER_WORKSPACE = '22222222-2222-4222-8222-222222222222';

/** Workspaces (GET/POST /workspaces, GET/PATCH/DELETE /workspaces/{id}), their defaults on requests, and their members. */
describe.each(testEngines)('workspaces on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const api = (method: string, path: string, body?: unknown) =>
    call(gw, method, path, { key: gw.managementKey, ...(body !== undefined ? { body } : {}) });
  let slugs = 0;
  const create = async (fields: Record<string, unknown> = {}) => {
    slugs += 1;
    const res = await api('POST', '/workspaces', { name: `Team ${slugs}`, slug: `team-${slugs}`, ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };
  const keyIn = async (workspaceId: string, creatorUserId?: string) =>
    (await api('POST', '/keys', { name: 'k', workspace_id: workspaceId, ...(creatorUserId ? { creator_user_id: creatorUserId } : {}) }))
      .body;
  const member = async (email: string, role: 'admin' | 'member') =>
    (await addMember(gw.store.db, gw.organizationId, { email, role }, newUserId, new Date().toISOString())).id;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = taskSimCatalog(sim.url, 'image', [
      { id: 'sim/image', endpoints: [{ provider: 'openai-a', upstream: 'gpt-image-1', pricing: '{ image: 0.04 }' }] },
    ]);
    gw = await startGateway(engine, { catalog, chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
    const now = new Date().toISOString();
    await gw.store.db
      .insertInto('organizations')
      .values({ id: 'org_other', name: 'Other', slug: 'other', is_default: 0, created_at: now })
      .execute();
    await gw.store.db
      .insertInto('workspaces')
      .values({ id: OTHER_WORKSPACE, organization_id: 'org_other', name: 'Theirs', slug: 'theirs', is_default: 1, created_at: now })
      .execute();
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  describe('create, read, list, update', () => {
    it('creates a workspace with the reference’s fields, and finds it by id and by slug', async () => {
      const made = await create({
        description: 'Production traffic',
        default_text_model: 'sim/chat',
        default_image_model: 'sim/image',
        default_provider_sort: 'price',
        io_logging_sampling_rate: 0.5,
        is_observability_broadcast_enabled: true,
      });
      expect(made).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: `Team ${slugs}`,
        slug: `team-${slugs}`,
        is_default: false,
        description: 'Production traffic',
        default_text_model: 'sim/chat',
        default_image_model: 'sim/image',
        default_provider_sort: 'price',
        default_guardrail_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        include_byok_in_budgets: false,
        io_logging_api_key_ids: null,
        io_logging_sampling_rate: 0.5,
        is_data_discount_logging_enabled: true,
        is_observability_broadcast_enabled: true,
        is_observability_io_logging_enabled: false,
        created_by: expect.any(String),
        created_at: expect.any(String),
        updated_at: null,
      });
      expect((await api('GET', `/workspaces/${made.id}`)).body.data).toEqual(made);
      expect((await api('GET', `/workspaces/${made.slug}`)).body.data).toEqual(made);
    });

    it('lists the default workspace first, then the others by creation, with the total', async () => {
      const made = await create();
      const list = await api('GET', '/workspaces?limit=100');
      expect(list.status).toBe(200);
      expect(list.body.data[0]).toMatchObject({ slug: 'default', is_default: true });
      expect(list.body.data.at(-1).id).toBe(made.id);
      expect(list.body.total_count).toBe(list.body.data.length);
      expect((await api('GET', '/workspaces?offset=1&limit=1')).body.data).toHaveLength(1);
      expect((await api('GET', '/workspaces?limit=101')).status).toBe(400);
    });

    it('changes the fields given and keeps the rest', async () => {
      const made = await create({ description: 'before' });
      const res = await api('PATCH', `/workspaces/${made.slug}`, {
        name: 'Renamed',
        slug: `renamed-${slugs}`,
        default_provider_sort: 'latency',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: made.id,
        name: 'Renamed',
        slug: `renamed-${slugs}`,
        description: 'before',
        default_provider_sort: 'latency',
      });
      expect(res.body.data.updated_at).not.toBeNull();
      expect((await api('GET', `/workspaces/${made.slug}`)).status).toBe(404);
    });

    it('refuses a slug taken in the organization with 409, on create and on update', async () => {
      const a = await create();
      const b = await create();
      const dup = await api('POST', '/workspaces', { name: 'Dup', slug: a.slug });
      expect(dup.status).toBe(409);
      expect(dup.body.error).toMatchObject({
        code: 409,
        message: `slug ${a.slug} is taken: another workspace of this organization has it`,
      });
      const moved = await api('PATCH', `/workspaces/${b.id}`, { slug: a.slug });
      expect(moved.status).toBe(409);
      expect((await api('GET', `/workspaces/${b.id}`)).body.data.slug).toBe(b.slug);
    });

    it.each([
      [{ name: 'x', slug: 'has spaces' }, 'slug must match the pattern'],
      [{ name: 'x', slug: 'Upper' }, 'slug must match the pattern'],
      [{ name: 'x', slug: '-lead' }, 'slug must match the pattern'],
      [{ name: 'x', slug: '123e4567-e89b-42d3-a456-426614174000' }, 'slug must not have the shape of a UUID'],
      [{ slug: 'no-name' }, 'name'],
      [{ name: 'x', slug: 'ok', default_text_model: 'sim/nothing' }, 'default_text_model sim/nothing is not a model of this gateway'],
      [{ name: 'x', slug: 'ok', default_text_model: 'sim/image' }, 'default_text_model sim/image is not a text model'],
      [{ name: 'x', slug: 'ok', default_image_model: 'sim/chat' }, 'default_image_model sim/chat is not an image model'],
      [{ name: 'x', slug: 'ok', default_provider_sort: 'cheapest' }, 'default_provider_sort must be one of'],
      [{ name: 'x', slug: 'ok', io_logging_sampling_rate: 0 }, 'io_logging_sampling_rate must be >= 0.0001'],
      [{ name: 'x', slug: 'ok', owner: 'me' }, 'owner'],
    ])('refuses %j with 400 naming the field', async (body, message) => {
      const res = await api('POST', '/workspaces', body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    });

    it('treats another organization’s workspace as absent', async () => {
      for (const id of [OTHER_WORKSPACE, 'theirs']) {
        expect((await api('GET', `/workspaces/${id}`)).status).toBe(404);
        expect((await api('PATCH', `/workspaces/${id}`, { name: 'mine now' })).status).toBe(404);
        expect((await api('DELETE', `/workspaces/${id}`)).status).toBe(404);
        expect((await api('GET', `/workspaces/${id}/members`)).status).toBe(404);
      }
      expect((await api('GET', '/workspaces?limit=100')).body.data.map((w: { id: string }) => w.id)).not.toContain(OTHER_WORKSPACE);
    });

    it('needs a management key', async () => {
      const plain = (await api('POST', '/keys', { name: 'plain' })).body.key;
      expect((await call(gw, 'GET', '/workspaces', { key: plain })).status).toBe(403);
    });
  });

  describe('delete', () => {
    it('refuses the default workspace with 403', async () => {
      const res = await api('DELETE', '/workspaces/default');
      expect(res.status).toBe(403);
      expect(res.headers.get('x-error-code')).toBe('GW_ERR_DEFAULT_WORKSPACE_UNDELETABLE');
    });

    it('refuses a workspace with active keys, then soft-deletes it with its budgets and guardrails once they are disabled', async () => {
      const ws = await create();
      const key = await keyIn(ws.id);
      const refused = await api('DELETE', `/workspaces/${ws.id}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain('has 1 active API key');
      const rail = (await api('POST', '/guardrails', { name: `rail ${ws.slug}`, workspace_id: ws.id, limit_usd: 5 })).body.data;
      const defaultRail = (await api('POST', '/guardrails', { name: `default rail ${ws.slug}`, limit_usd: 5 })).body.data;
      expect((await api('POST', `/guardrails/${defaultRail.id}/assignments/keys`, { key_hashes: [key.data.hash] })).status).toBe(200);
      await gw.store.db
        .insertInto('workspace_budgets')
        .values({
          id: crypto.randomUUID(),
          workspace_id: ws.id,
          reset_interval: 'daily',
          limit_usd: 5,
          created_at: ws.created_at,
          updated_at: ws.created_at,
        })
        .execute();

      expect((await api('PATCH', `/keys/${key.data.hash}`, { disabled: true })).status).toBe(200);
      const deleted = await api('DELETE', `/workspaces/${ws.slug}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ deleted: true });

      expect((await api('GET', `/workspaces/${ws.id}`)).status).toBe(404);
      expect((await api('GET', '/workspaces?limit=100')).body.data.map((w: { id: string }) => w.id)).not.toContain(ws.id);
      expect((await api('GET', `/guardrails/${rail.id}`)).status).toBe(404);
      expect((await api('GET', `/guardrails/${defaultRail.id}`)).status).toBe(200);
      const budgets = await gw.store.db.selectFrom('workspace_budgets').selectAll().where('workspace_id', '=', ws.id).execute();
      expect(budgets).toEqual([]);
      // The row stays for the ledger's ids.
      const row = await gw.store.db.selectFrom('workspaces').selectAll().where('id', '=', ws.id).executeTakeFirstOrThrow();
      expect(row.deleted_at).not.toBeNull();

      const enable = await api('PATCH', `/keys/${key.data.hash}`, { disabled: false });
      expect(enable.status).toBe(400);
      expect(enable.body.error.message).toContain('was deleted');
      expect((await call(gw, 'GET', '/key', { key: key.key })).status).toBe(401);
      const newKey = await api('POST', '/keys', { name: 'late', workspace_id: ws.id });
      expect(newKey.status).toBe(400);
      expect(newKey.body.error.message).toBe(`workspace_id ${ws.id} is not a workspace of this organization`);
      // Its slug is free again.
      expect((await api('POST', '/workspaces', { name: 'Again', slug: ws.slug })).status).toBe(201);
    });

    it('refuses keys in another organization’s workspace', async () => {
      const res = await api('POST', '/keys', { name: 'x', workspace_id: OTHER_WORKSPACE });
      expect(res.status).toBe(400);
    });
  });

  describe('defaults on requests, through the openai client', () => {
    it('gives a request without a model the workspace’s default text model and provider sort, and follows a change at once', async () => {
      const ws = await create({ default_text_model: 'sim/chat', default_provider_sort: 'price' });
      const { key } = await keyIn(ws.id);
      const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: key, maxRetries: 0, defaultHeaders: { 'x-service-metadata': 'enabled' } });
      const messages = [{ role: 'user' as const, content: 'hello' }];
      const completion = await openai.chat.completions.create({ messages } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
      expect(completion.model).toBe('sim/chat');
      const metadata = (completion as unknown as { service_metadata: { endpoints: { available: { reason: string }[] } } }).service_metadata;
      expect(metadata.endpoints.available[0]!.reason).toContain('sort by price');

      const response = await openai.responses.create({ input: 'hello' } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming);
      expect(response.model).toBe('sim/chat');

      const messagesAnswer = await call(gw, 'POST', '/messages', { key, body: { max_tokens: 16, messages } });
      expect(messagesAnswer.status).toBe(200);
      expect(messagesAnswer.body.model).toBe('sim/chat');

      // A model named in the request wins; a sort it sets wins too.
      const named = await openai.chat.completions.create({
        model: 'sim/chat',
        messages,
        provider: { sort: 'latency' },
      } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
      const namedMetadata = (named as unknown as { service_metadata: { endpoints: { available: { reason: string }[] } } }).service_metadata;
      expect(namedMetadata.endpoints.available[0]!.reason).toContain('sort by latency');

      expect((await api('PATCH', `/workspaces/${ws.id}`, { default_text_model: null })).status).toBe(200);
      const refused = await openai.chat.completions
        .create({ messages } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refused as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('model is required');
    });

    it('gives an image request without a model the workspace’s default image model', async () => {
      const ws = await create({ default_image_model: 'sim/image' });
      const { key } = await keyIn(ws.id);
      const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: key, maxRetries: 0 });
      const answer = await openai.images.generate({ prompt: 'a lighthouse', quality: 'low' });
      expect(answer.data).toHaveLength(1);
      expect((answer as unknown as { model: string }).model).toBe('sim/image');

      const bare = new OpenAI({ baseURL: gw.baseUrl, apiKey: (await keyIn((await create()).id)).key, maxRetries: 0 });
      const refused = await bare.images.generate({ prompt: 'a lighthouse' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
      expect((refused as Error).message).toContain('default_image_model');
    });
  });

  describe('members', () => {
    it('holds every organization member in the default workspace, with the role matching theirs', async () => {
      const admin = await member('admin-a@example.com', 'admin');
      const res = await api('GET', '/workspaces/default/members?limit=100');
      expect(res.status).toBe(200);
      const byUser = new Map(res.body.data.map((m: { user_id: string; role: string }) => [m.user_id, m]));
      expect(byUser.get(admin)).toMatchObject({ role: 'admin', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const organization = (await api('GET', '/organization/members?limit=100')).body;
      expect(res.body.total_count).toBe(organization.total_count);
      // Their ids stay the same from one answer to the next.
      expect((await api('GET', '/workspaces/default/members?limit=100')).body.data).toEqual(res.body.data);
      const add = await api('POST', '/workspaces/default/members/add', { user_ids: [admin] });
      expect(add.status).toBe(400);
      expect(add.body.error.message).toContain('default workspace');
    });

    it('adds organization members with their organization role, or the role given, and removes them', async () => {
      const ws = await create();
      const alice = await member('alice@example.com', 'member');
      const bob = await member('bob@example.com', 'admin');
      const added = await api('POST', `/workspaces/${ws.slug}/members/add`, { user_ids: [alice, bob, alice] });
      expect(added.status).toBe(200);
      expect(added.body.added_count).toBe(2);
      expect(added.body.data.map((m: { user_id: string; role: string }) => [m.user_id, m.role]).sort()).toEqual(
        [
          [alice, 'member'],
          [bob, 'admin'],
        ].sort(),
      );
      const promoted = await api('POST', `/workspaces/${ws.id}/members/add`, { user_ids: [alice], role: 'admin' });
      expect(promoted.body).toMatchObject({ added_count: 1, data: [{ user_id: alice, role: 'admin', workspace_id: ws.id }] });
      const listed = await api('GET', `/workspaces/${ws.id}/members`);
      expect(listed.body.total_count).toBe(2);
      expect(listed.body.data.find((m: { user_id: string }) => m.user_id === alice).role).toBe('admin');

      // A member whose keys are active in the workspace stays.
      const key = await keyIn(ws.id, bob);
      const refused = await api('POST', `/workspaces/${ws.id}/members/remove`, { user_ids: [alice, bob] });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain(bob);
      expect((await api('GET', `/workspaces/${ws.id}/members`)).body.total_count).toBe(2);
      await api('DELETE', `/keys/${key.data.hash}`);
      const removed = await api('POST', `/workspaces/${ws.id}/members/remove`, { user_ids: [alice, bob, 'user_nobody'] });
      expect(removed.body).toEqual({ removed_count: 2 });
      expect((await api('GET', `/workspaces/${ws.id}/members`)).body).toEqual({ data: [], total_count: 0 });
    });

    it('takes a member out of the organization’s workspaces when they leave it', async () => {
      const ws = await create();
      const carol = await member('carol@example.com', 'member');
      await api('POST', `/workspaces/${ws.id}/members/add`, { user_ids: [carol] });
      await removeMember(gw.store.db, gw.organizationId, 'carol@example.com');
      expect((await api('GET', `/workspaces/${ws.id}/members`)).body.total_count).toBe(0);
    });

    it.each([
      [{ user_ids: [] }, 'user_ids must have at least 1 item'],
      [{ user_ids: Array.from({ length: 10_000 }, (_, i) => `user_${i}`) }, 'user_ids must have at most 100 items'],
      [{ user_ids: ['user_stranger'] }, 'user_ids: user_stranger is not a member of this organization'],
      [{ user_ids: ['x'], role: 'owner' }, 'role must be one of'],
    ])('refuses %# with 400 naming the field', async (body, message) => {
      const ws = await create();
      const res = await api('POST', `/workspaces/${ws.id}/members/add`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    });

    it('refuses a member of another organization', async () => {
      const ws = await create();
      const stranger = newUserId();
      const now = new Date().toISOString();
      await gw.store.db
        .insertInto('users')
        .values({ id: stranger, email: 'stranger@other.example', first_name: null, last_name: null, created_at: now })
        .execute();
      await gw.store.db
        .insertInto('memberships')
        .values({ organization_id: 'org_other', user_id: stranger, role: 'owner', created_at: now })
        .execute();
      const res = await api('POST', `/workspaces/${ws.id}/members/add`, { user_ids: [stranger] });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(stranger);
      const other = await createApiKey(
        gw.store.db,
        { organizationId: 'org_other', workspaceId: OTHER_WORKSPACE, name: 'o', isManagement: true },
        now,
      );
      expect((await call(gw, 'POST', `/workspaces/${ws.id}/members/add`, { key: other.key, body: { user_ids: [stranger] } })).status).toBe(
        404,
      );
    });
  });
});
