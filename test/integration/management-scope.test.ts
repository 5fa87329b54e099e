import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordGenerations } from '../../src/accounting/record-generation.js';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { MANAGEMENT_KEY_REQUIRED } from '../../src/api/openapi/openapi-document.js';
import { createKey } from '../../src/cli/keys-commands.js';
import { INTERN_PROGRAMME_TOPIC } from '../../src/interns/flag-cache.js';
import { insertByokCredential } from '../../src/store/repositories/byok-credentials.js';
import { enroll } from '../../src/store/repositories/interns.js';
import { addMember } from '../../src/store/repositories/members.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * A management key scoped to one workspace (alpha) against every management
 * route, aimed at another workspace's (beta's) resources: each answers 403
 * (the organization's operations) or 404 (another workspace's resource), or,
 * for a route that cannot name another workspace, answers without a trace of
 * beta. The routes come from the served OpenAPI document, so a new management
 * route without a row here fails the test.
 */

type Expect = 401 | 403 | 404 | 'no-leak';
interface Row {
  /** Query string (with B's ids filled in) added to the path. */
  query?: string;
  body?: unknown;
  expect: Expect;
}

/** What beta holds; none of it may show in an answer to alpha's key. */
interface Beta {
  workspaceId: string;
  keyHash: string;
  guardrailId: string;
  presetSlug: string;
  generationId: string;
  ownerId: string;
  byokId: string;
  destinationId: string;
}

const chatBody = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

/** By `METHOD /path` as the OpenAPI document names it. */
function table(b: Beta): Record<string, Row> {
  const assignment = (segment: string, body: unknown): Record<string, Row> => ({
    [`GET /guardrails/assignments/${segment}`]: { expect: 'no-leak' },
    [`GET /guardrails/{id}/assignments/${segment}`]: { expect: 404 },
    [`POST /guardrails/{id}/assignments/${segment}`]: { body, expect: 404 },
    [`POST /guardrails/{id}/assignments/${segment}/remove`]: { body, expect: 404 },
  });
  return {
    'GET /keys': { query: `?workspace_id=${b.workspaceId}`, expect: 404 },
    'POST /keys': { body: { name: 'x', workspace_id: b.workspaceId }, expect: 404 },
    'GET /keys/{hash}': { expect: 404 },
    'PATCH /keys/{hash}': { body: { name: 'x' }, expect: 404 },
    'DELETE /keys/{hash}': { expect: 404 },
    'POST /presets': { body: { slug: 'alpha-made', config: { temperature: 0.5 } }, expect: 'no-leak' },
    'PATCH /presets/{slug}': { body: { name: 'x' }, expect: 404 },
    'DELETE /presets/{slug}': { expect: 404 },
    // Without a workspace_id these save a preset of alpha's own (each workspace has its own slugs).
    'POST /presets/{slug}/chat/completions': { query: `?workspace_id=${b.workspaceId}`, body: chatBody, expect: 404 },
    'POST /presets/{slug}/responses': {
      query: `?workspace_id=${b.workspaceId}`,
      body: { model: 'openai/gpt-4o-mini', input: 'hi' },
      expect: 404,
    },
    'POST /presets/{slug}/messages': {
      query: `?workspace_id=${b.workspaceId}`,
      body: { model: 'openai/gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
      expect: 404,
    },
    'GET /organization/members': { expect: 403 },
    'POST /organization/members': { body: { email: 'scoped@example.com' }, expect: 403 },
    'PATCH /organization/members/{id}': { body: { role: 'admin' }, expect: 403 },
    'DELETE /organization/members/{id}': { expect: 403 },
    'POST /generation/feedback': { body: { generation_id: b.generationId, category: 'other' }, expect: 404 },
    'GET /generations': { query: `?api_key_hash=${b.keyHash}`, expect: 'no-leak' },
    // The caller's own console session, which a bearer key has none of.
    'GET /console/session': { expect: 401 },
    'DELETE /console/session': { expect: 401 },
    'GET /activity': { query: `?workspace_id=${b.workspaceId}`, expect: 404 },
    'GET /analytics/meta': { expect: 'no-leak' },
    'POST /analytics/query': { body: { metrics: ['total_usage'], dimensions: ['api_key_id', 'workspace'] }, expect: 'no-leak' },
    'GET /credits': { expect: 'no-leak' },
    'POST /credits/grants': { body: { amount: 5 }, expect: 403 },
    'GET /credits/grants': { expect: 403 },
    'GET /organization/settings': { expect: 403 },
    'PATCH /organization/settings': { body: { store_content: true }, expect: 403 },
    'GET /guardrails': { query: `?workspace_id=${b.workspaceId}`, expect: 404 },
    'POST /guardrails': { body: { name: 'x', workspace_id: b.workspaceId }, expect: 404 },
    'GET /guardrails/{id}': { expect: 404 },
    'PATCH /guardrails/{id}': { body: { name: 'x' }, expect: 404 },
    'DELETE /guardrails/{id}': { expect: 404 },
    ...assignment('keys', { key_hashes: [b.keyHash] }),
    ...assignment('members', { member_user_ids: [b.ownerId] }),
    ...assignment('workspaces', { workspace_ids: [b.workspaceId] }),
    ...assignment('organization', undefined),
    'GET /byok': { query: `?workspace_id=${b.workspaceId}`, expect: 404 },
    'POST /byok': { body: { provider: 'openai', key: 'sk-x', workspace_id: b.workspaceId }, expect: 404 },
    'GET /byok/{id}': { expect: 404 },
    'PATCH /byok/{id}': { body: { name: 'x' }, expect: 404 },
    'DELETE /byok/{id}': { expect: 404 },
    'GET /workspaces': { expect: 'no-leak' },
    'POST /workspaces': { body: { name: 'Gamma', slug: 'gamma' }, expect: 403 },
    'GET /workspaces/{id}': { expect: 404 },
    'PATCH /workspaces/{id}': { body: { description: 'x' }, expect: 404 },
    'DELETE /workspaces/{id}': { expect: 404 },
    'GET /workspaces/{id}/members': { expect: 404 },
    'POST /workspaces/{id}/members/add': { body: { user_ids: [b.ownerId] }, expect: 404 },
    'POST /workspaces/{id}/members/remove': { body: { user_ids: [b.ownerId] }, expect: 404 },
    'GET /workspaces/{id}/budgets': { expect: 404 },
    'GET /workspaces/{id}/budgets/{interval}': { expect: 404 },
    'PUT /workspaces/{id}/budgets/{interval}': { body: { limit_usd: 5 }, expect: 404 },
    'DELETE /workspaces/{id}/budgets/{interval}': { expect: 404 },
    // SCIM is the organization's: a workspace key is refused whatever it names.
    'GET /observability/destinations': { query: `?workspace_id=${b.workspaceId}`, expect: 404 },
    'POST /observability/destinations': {
      body: { type: 'webhook', name: 'x', config: { url: 'https://example.com/hook' }, workspace_id: b.workspaceId },
      expect: 404,
    },
    'GET /observability/destinations/{id}': { expect: 404 },
    'PATCH /observability/destinations/{id}': { body: { name: 'x' }, expect: 404 },
    'DELETE /observability/destinations/{id}': { expect: 404 },
    'POST /observability/destinations/{id}/retry': { expect: 404 },
    'GET /scim/group-mappings': { expect: 403 },
    'POST /scim/group-mappings': {
      body: { scim_group_id: '00000000-0000-4000-8000-000000000001', workspace_id: b.workspaceId, role: 'member' },
      expect: 403,
    },
    'GET /scim/group-mappings/{id}': { expect: 403 },
    'PATCH /scim/group-mappings/{id}': { body: { role: 'admin' }, expect: 403 },
    'DELETE /scim/group-mappings/{id}': { query: '?keep_members=false', expect: 403 },
    'GET /scim/groups': { expect: 403 },
    'POST /scim/token': { expect: 403 },
    'DELETE /scim/token': { expect: 403 },
  };
}

/** What beta holds of the interns programme, in the paths of the routes any key may call on it. */
interface BetaInterns {
  workspaceId: string;
  internId: string;
  sessionId: string;
  secret: string;
}

/**
 * The interns and the vault, by `METHOD /path` as the OpenAPI document names
 * them: any key calls them, each on its workspace's interns and secrets only.
 */
function internsTable(b: BetaInterns): Record<string, Row> {
  const ws = `?workspace_id=${b.workspaceId}`;
  const hosts = { value: 'v', hosts: ['example.com'] };
  return {
    'GET /interns': { query: ws, expect: 404 },
    'POST /interns': { body: { name: 'x', workspace_id: b.workspaceId }, expect: 404 },
    'GET /interns/{internId}': { expect: 404 },
    'PATCH /interns/{internId}': { body: { name: 'x' }, expect: 404 },
    'DELETE /interns/{internId}': { expect: 404 },
    'POST /interns/{internId}/provision': { expect: 404 },
    'POST /interns/{internId}/suspend': { expect: 404 },
    'POST /interns/{internId}/invoke': { body: { input: 'hi' }, expect: 404 },
    'POST /interns/{internId}/chat/completions': { body: { stream: true, messages: [{ role: 'user', content: 'hi' }] }, expect: 404 },
    'GET /interns/{internId}/sessions/{session_id}': { expect: 404 },
    'GET /vault/secrets': { query: ws, expect: 404 },
    'PUT /vault/secrets/{name}': { query: ws, body: hosts, expect: 404 },
    'DELETE /vault/secrets/{name}': { query: ws, expect: 404 },
    'GET /vault/interns/{internId}/secrets': { expect: 404 },
    'PUT /vault/interns/{internId}/secrets/{name}': { body: hosts, expect: 404 },
    'DELETE /vault/interns/{internId}/secrets/{name}': { expect: 404 },
    'POST /vault/interns/{internId}/secrets/copy': { body: { names: [b.secret] }, expect: 404 },
  };
}

const fillInterns = (path: string, b: BetaInterns) =>
  path.replace('{internId}', b.internId).replace('{session_id}', b.sessionId).replace('{name}', b.secret);

/** The path with beta's resources in its parameters. */
const fill = (path: string, b: Beta) =>
  path
    .replace('{hash}', b.keyHash)
    .replace('{slug}', b.presetSlug)
    .replace('{interval}', 'daily')
    .replace(
      '{id}',
      path.startsWith('/guardrails')
        ? b.guardrailId
        : path.startsWith('/byok')
          ? b.byokId
          : path.startsWith('/observability')
            ? b.destinationId
            : path.startsWith('/organization/members')
              ? b.ownerId
              : b.workspaceId,
    );

describe.each(testEngines)('management key scope on $name', (engine) => {
  let gw: RunningGateway;
  let alphaId: string;
  let alphaKey: string;
  let betaKey: string;
  let beta: Beta;
  const admin = (method: string, path: string, body?: unknown) => call(gw, method, path, { key: gw.managementKey, body });

  /** A management key that manages only its workspace. */
  async function scopedKey(workspaceId: string, name: string): Promise<string> {
    const made = await createApiKey(
      gw.store.db,
      { organizationId: gw.organizationId, workspaceId, name, isManagement: true, managementScope: 'workspace' },
      new Date().toISOString(),
    );
    return made.key;
  }

  /** A BYOK credential of beta's, written to the store (this gateway serves no provider that the API would take). */
  async function betaCredential(workspaceId: string): Promise<string> {
    const now = new Date().toISOString();
    const row = await insertByokCredential(gw.store.db, {
      id: '00000000-0000-4000-8000-0000000be7a0',
      organization_id: gw.organizationId,
      workspace_id: workspaceId,
      provider: 'openai',
      name: 'beta-byok-name',
      label: 'sk-...beta',
      created_at: now,
      updated_at: now,
    });
    return row.id;
  }

  beforeAll(async () => {
    // A chat model for requests naming a preset; nothing here reaches its upstream.
    gw = await startGateway(engine, {
      catalog: simCatalog('http://127.0.0.1:9', ['sim'], [{ id: 'sim/chat', endpoints: [{ provider: 'sim', upstream: 'sim-model' }] }]),
    });
    alphaId = (await admin('POST', '/workspaces', { name: 'Alpha', slug: 'alpha' })).body.data.id;
    const betaId = (await admin('POST', '/workspaces', { name: 'Beta', slug: 'beta-team' })).body.data.id;
    alphaKey = await scopedKey(alphaId, 'alpha manager');
    betaKey = await scopedKey(betaId, 'beta manager');
    const key = (await admin('POST', '/keys', { name: 'beta-key-name', workspace_id: betaId })).body.data;
    const guardrail = (await admin('POST', '/guardrails', { name: 'beta-guardrail-name', workspace_id: betaId })).body.data;
    await admin('POST', `/guardrails/${guardrail.id}/assignments/keys`, { key_hashes: [key.hash] });
    await admin('POST', `/guardrails/${guardrail.id}/assignments/workspaces`, { workspace_ids: [betaId] });
    const preset = await call(gw, 'POST', '/presets', { key: betaKey, body: { slug: 'beta-preset', config: { temperature: 1 } } });
    expect(preset.status).toBe(201);
    const ownerId = (await admin('GET', '/organization/members')).body.data[0].id;
    const destination = await call(gw, 'POST', '/observability/destinations', {
      key: betaKey,
      body: { type: 'webhook', name: 'beta-destination-name', config: { url: 'https://example.com/beta' }, enabled: false },
    });
    expect(destination.status).toBe(201);
    const now = new Date();
    await recordGenerations(
      gw.store.db,
      [
        {
          id: 'gen-beta-0001',
          organization_id: gw.organizationId,
          workspace_id: betaId,
          api_key_hash: key.hash,
          model: 'openai/gpt-4o-mini',
          provider_name: 'openai',
          api_type: 'completions',
          status: 'success',
          streamed: 0,
          cancelled: 0,
          total_cost: 2,
          created_at: now.toISOString(),
        },
      ],
      now,
    );
    beta = {
      workspaceId: betaId,
      keyHash: key.hash,
      guardrailId: guardrail.id,
      presetSlug: 'beta-preset',
      generationId: 'gen-beta-0001',
      ownerId,
      byokId: await betaCredential(betaId),
      destinationId: destination.body.data.id,
    };
  });
  afterAll(async () => {
    await gw.close();
  });

  it('has a row for every management route, and each keeps beta from alpha’s key', async () => {
    const document = (await call(gw, 'GET', '/openapi.json')).body;
    const served: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, { description?: string }>>(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (operation.description?.startsWith(MANAGEMENT_KEY_REQUIRED))
          served.push(`${method.toUpperCase()} ${path.replace('/api/v1', '')}`);
      }
    }
    const rows = table(beta);
    expect(served.filter((route) => !(route in rows))).toEqual([]);
    expect(Object.keys(rows).filter((route) => !served.includes(route))).toEqual([]);

    // What exists nowhere: a refusal of beta's things must read exactly as a refusal of these.
    const nowhere: Beta = {
      workspaceId: '00000000-0000-4000-8000-00000000abcd',
      keyHash: 'f'.repeat(64),
      guardrailId: '00000000-0000-4000-8000-00000000dcba',
      presetSlug: 'no-such-preset',
      generationId: 'gen-nowhere',
      ownerId: beta.ownerId,
      byokId: '00000000-0000-4000-8000-00000000b10c',
      destinationId: '00000000-0000-4000-8000-00000000beef',
    };
    const masked = (text: string, b: Beta) =>
      [b.workspaceId, b.keyHash, b.guardrailId, b.presetSlug, b.generationId, b.byokId, b.destinationId].reduce(
        (out, id) => out.replaceAll(id, '<id>'),
        text,
      );
    const secrets = [
      beta.workspaceId,
      beta.keyHash,
      beta.guardrailId,
      beta.presetSlug,
      beta.generationId,
      beta.byokId,
      'beta-byok-name',
      'beta-team',
      'Beta',
      'beta-key-name',
      beta.destinationId,
      'beta-destination-name',
    ];
    const failures: string[] = [];
    for (const route of served) {
      const [method, path] = route.split(' ') as [string, string];
      const ask = async (b: Beta) => {
        const row = table(b)[route]!;
        const res = await call(gw, method, `${fill(path, b)}${row.query ?? ''}`, { key: alphaKey, body: row.body });
        return { status: res.status, text: JSON.stringify(res.body) };
      };
      const { expect: expected } = rows[route]!;
      const res = await ask(beta);
      if (expected === 'no-leak') {
        const leaked = secrets.filter((secret) => res.text.includes(secret));
        if (res.status >= 300 || leaked.length > 0) failures.push(`${route}: ${res.status} shows ${leaked.join(', ')}`);
        continue;
      }
      const absent = await ask(nowhere);
      if (res.status !== expected) failures.push(`${route}: ${res.status}, not ${expected}: ${res.text.slice(0, 200)}`);
      else if (masked(res.text, beta) !== masked(absent.text, nowhere)) failures.push(`${route}: ${res.text} differs from ${absent.text}`);
    }
    expect(failures).toEqual([]);
    // Nothing of beta changed.
    expect((await admin('GET', `/keys/${beta.keyHash}`)).body.data.name).toBe('beta-key-name');
    expect((await admin('GET', `/guardrails/${beta.guardrailId}`)).body.data.name).toBe('beta-guardrail-name');
    expect((await admin('GET', `/presets/${beta.presetSlug}?workspace_id=${beta.workspaceId}`)).status).toBe(200);
    expect((await admin('GET', `/workspaces/${beta.workspaceId}`)).status).toBe(200);
  });

  it('keeps beta’s interns and vault secrets from alpha’s keys, management or not', async () => {
    await enroll(gw.store.db, gw.organizationId, new Date().toISOString());
    await gw.changes.publish(INTERN_PROGRAMME_TOPIC, gw.organizationId);
    const asBeta = (method: string, path: string, body?: unknown) => call(gw, method, path, { key: betaKey, body });
    const intern = await asBeta('POST', '/interns', { name: 'beta-intern-name' });
    expect(intern.status).toBe(201);
    const secret = { value: 'beta-secret-value', hosts: ['beta.example.com'] };
    expect((await asBeta('PUT', '/vault/secrets/beta_secret', secret)).status).toBe(200);
    expect((await asBeta('PUT', `/vault/interns/${intern.body.id}/secrets/beta_secret`, secret)).status).toBe(200);
    const b: BetaInterns = { workspaceId: beta.workspaceId, internId: intern.body.id, sessionId: 'isess_beta', secret: 'beta_secret' };
    const nowhere: BetaInterns = {
      workspaceId: '00000000-0000-4000-8000-00000000abcd',
      internId: 'intern_nowhere',
      sessionId: 'isess_beta',
      secret: 'beta_secret',
    };
    // An inference key of alpha's is held to its workspace as alpha's management key is.
    const alphaInference = (await admin('POST', '/keys', { name: 'alpha inference', workspace_id: alphaId })).body.key;

    const document = (await call(gw, 'GET', '/openapi.json')).body;
    const served = Object.entries<Record<string, unknown>>(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace('/api/v1', '')}`),
    );
    const routes = served.filter((route) => / \/(interns|vault)\b/.test(route));
    const rows = internsTable(b);
    expect(routes.filter((route) => !(route in rows))).toEqual([]);
    expect(Object.keys(rows).filter((route) => !routes.includes(route))).toEqual([]);

    const failures: string[] = [];
    for (const key of [alphaKey, alphaInference]) {
      for (const route of routes) {
        const [method, path] = route.split(' ') as [string, string];
        const ask = async (target: BetaInterns) => {
          const row = internsTable(target)[route]!;
          const res = await call(gw, method, `${fillInterns(path, target)}${row.query ?? ''}`, { key, body: row.body });
          return { status: res.status, text: JSON.stringify(res.body) };
        };
        const [res, absent] = [await ask(b), await ask(nowhere)];
        const masked = (text: string, target: BetaInterns) =>
          text.replaceAll(target.internId, '<id>').replaceAll(target.workspaceId, '<id>');
        if (res.status !== 404) failures.push(`${route}: ${res.status}, not 404: ${res.text.slice(0, 200)}`);
        else if (masked(res.text, b) !== masked(absent.text, nowhere)) failures.push(`${route}: ${res.text} differs from ${absent.text}`);
      }
      // Its own lists hold nothing of beta's.
      for (const path of ['/interns', '/vault/secrets']) {
        const res = await call(gw, 'GET', path, { key });
        expect(res.status, path).toBe(200);
        expect(JSON.stringify(res.body), path).not.toMatch(/beta/);
      }
    }
    expect(failures).toEqual([]);
    // Nothing of beta's changed.
    expect((await asBeta('GET', `/interns/${b.internId}`)).body).toMatchObject({ name: 'beta-intern-name', status: 'queued' });
    expect((await asBeta('GET', '/vault/secrets')).body.data.map((s: { name: string }) => s.name)).toEqual(['beta_secret']);
    expect((await asBeta('GET', `/vault/interns/${b.internId}/secrets`)).body.data.map((s: { name: string }) => s.name)).toEqual([
      'beta_secret',
    ]);
    // The organization's key reaches beta's by naming it.
    expect((await admin('GET', `/interns/${b.internId}`)).status).toBe(200);
    expect((await admin('GET', `/vault/secrets?workspace_id=${beta.workspaceId}`)).body.data).toHaveLength(1);
    expect((await admin('GET', `/interns?workspace_id=${beta.workspaceId}`)).body.data.map((i: { id: string }) => i.id)).toEqual([
      b.internId,
    ]);
  });

  it('gives each workspace its own preset slugs: both may hold "x", and neither key learns of the other’s', async () => {
    const make = (key: string, prompt: string) =>
      call(gw, 'POST', '/presets', { key, body: { slug: 'x', system_prompt: prompt, config: { model: 'sim/chat' } } });
    const long = 'Answer at length, in the manner of a nineteenth-century novelist, with digressions. '.repeat(8);
    expect((await make(alphaKey, 'Be brief.')).status).toBe(201);
    expect((await make(betaKey, long)).status).toBe(201);
    // A duplicate in its own workspace is still refused.
    expect((await make(betaKey, 'again')).status).toBe(409);

    const prompt = async (key: string, query = '') => (await call(gw, 'GET', `/presets/x${query}`, { key })).body.data;
    expect(await prompt(alphaKey)).toMatchObject({ workspace_id: alphaId, designated_version: { system_prompt: 'Be brief.' } });
    expect(await prompt(betaKey)).toMatchObject({ workspace_id: beta.workspaceId, designated_version: { system_prompt: long } });
    const listed = JSON.stringify((await call(gw, 'GET', '/presets', { key: alphaKey })).body);
    expect(listed).not.toContain(beta.workspaceId);
    // A request naming the preset gets its own workspace's: the long prompt counts more tokens.
    const count = async (key: string) => {
      const res = await call(gw, 'POST', '/messages/count_tokens', {
        key,
        body: { model: '@preset/x', messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.input_tokens as number;
    };
    expect(await count(betaKey)).toBeGreaterThan((await count(alphaKey)) + 50);

    // Alpha's changes touch alpha's only.
    expect((await call(gw, 'PATCH', '/presets/x', { key: alphaKey, body: { system_prompt: 'Be terse.' } })).status).toBe(200);
    expect((await call(gw, 'DELETE', '/presets/x', { key: alphaKey })).status).toBe(200);
    expect(await prompt(betaKey)).toMatchObject({ designated_version: { system_prompt: long, version: 1 } });
    // The organization's key names the workspace it means; the key's own is the default.
    expect(await prompt(gw.managementKey, `?workspace_id=${beta.workspaceId}`)).toMatchObject({ workspace_id: beta.workspaceId });
    expect((await admin('GET', '/presets/x')).status).toBe(404);
    const betas = (await admin('GET', `/presets?workspace_id=${beta.workspaceId}`)).body.data;
    expect(betas.map((p: { workspace_id: string }) => p.workspace_id)).toEqual(betas.map(() => beta.workspaceId));
  });

  it('refuses the organization’s operations with their own error', async () => {
    const res = await call(gw, 'POST', '/workspaces', { key: alphaKey, body: { name: 'Gamma', slug: 'gamma' } });
    expect(res.status).toBe(403);
    expect(res.headers.get('x-error-code')).toBe('GW_ERR_ORGANIZATION_KEY_REQUIRED');
    expect(res.body.error.message).toBe('Only an organization-wide management key can create workspaces; this key manages one workspace');
  });

  it('hides the other workspace’s generations from the reads any key may make', async () => {
    expect((await call(gw, 'GET', `/generation?id=${beta.generationId}`, { key: alphaKey })).status).toBe(404);
    expect((await call(gw, 'GET', `/generation?id=${beta.generationId}`, { key: betaKey })).status).toBe(200);
    expect((await call(gw, 'GET', `/presets/${beta.presetSlug}`, { key: alphaKey })).status).toBe(404);
    const presets = await call(gw, 'GET', '/presets', { key: alphaKey });
    expect(presets.body.data.map((p: { slug: string }) => p.slug)).not.toContain(beta.presetSlug);
    // Files: beta's upload is as absent to alpha's key as a missing one, named or listed.
    const form = new FormData();
    form.append('file', new Blob(['beta notes']), 'beta.txt');
    const uploaded = await fetch(`${gw.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${betaKey}` }, body: form });
    const fileId = ((await uploaded.json()) as { id: string }).id;
    for (const path of [`/files/${fileId}`, `/files/${fileId}/content`, `/files/${fileId}?workspace_id=${beta.workspaceId}`])
      expect((await call(gw, 'GET', path, { key: alphaKey })).status, path).toBe(404);
    expect((await call(gw, 'DELETE', `/files/${fileId}`, { key: alphaKey })).status).toBe(404);
    expect((await call(gw, 'GET', '/files', { key: alphaKey })).body.data).toEqual([]);
    expect((await call(gw, 'GET', `/files/${fileId}`, { key: betaKey })).status).toBe(200);
  });

  it('lets a scoped key manage its own workspace', async () => {
    const as = (method: string, path: string, body?: unknown) => call(gw, method, path, { key: alphaKey, body });
    const made = await as('POST', '/keys', { name: 'alpha key' });
    expect(made.status).toBe(201);
    expect(made.body.data.workspace_id).toBe(alphaId);
    const listed = await as('GET', '/keys');
    expect(listed.body.data.map((k: { hash: string }) => k.hash)).toContain(made.body.data.hash);
    expect((await as('PATCH', `/keys/${made.body.data.hash}`, { limit: 3 })).body.data.limit).toBe(3);
    // It cannot move its keys out of its workspace.
    expect((await as('PATCH', `/keys/${made.body.data.hash}`, { workspace_id: beta.workspaceId })).status).toBe(404);

    const workspaces = await as('GET', '/workspaces');
    expect(workspaces.body).toMatchObject({ total_count: 1, data: [{ id: alphaId }] });
    expect((await as('PATCH', `/workspaces/${alphaId}`, { description: 'ours' })).body.data.description).toBe('ours');
    expect((await as('DELETE', `/workspaces/${alphaId}`)).status).toBe(403);
    expect((await as('GET', `/workspaces/${alphaId}/members`)).status).toBe(200);

    const guardrail = await as('POST', '/guardrails', { name: 'alpha guardrail' });
    expect(guardrail.body.data.workspace_id).toBe(alphaId);
    expect(
      (await as('POST', `/guardrails/${guardrail.body.data.id}/assignments/keys`, { key_hashes: [made.body.data.hash] })).body,
    ).toEqual({
      assigned_count: 1,
    });
    // Beta's key is no target of alpha's guardrail.
    expect((await as('POST', `/guardrails/${guardrail.body.data.id}/assignments/keys`, { key_hashes: [beta.keyHash] })).status).toBe(400);
    expect((await as('POST', `/guardrails/${guardrail.body.data.id}/assignments/organization`)).status).toBe(403);

    expect((await as('PATCH', '/presets/alpha-made', { name: 'Alpha made' })).status).toBe(200);
    expect((await as('GET', '/activity')).status).toBe(200);
    // The credits view: the organization's credits, the workspace's spending.
    expect((await as('GET', '/credits')).body.data.total_usage).toBe(0);
    expect((await call(gw, 'GET', '/credits', { key: betaKey })).body.data.total_usage).toBe(2);
    const analytics = await call(gw, 'POST', '/analytics/query', { key: betaKey, body: { metrics: ['total_usage'] } });
    expect(analytics.body.data.data).toEqual([{ total_usage: 2 }]);
  });

  it('lets an organization key move a key between workspaces, to a live one of the organization', async () => {
    const key = (await admin('POST', '/keys', { name: 'mover', workspace_id: beta.workspaceId })).body.data;
    expect((await call(gw, 'GET', `/keys/${key.hash}`, { key: alphaKey })).status).toBe(404);
    const moved = await admin('PATCH', `/keys/${key.hash}`, { workspace_id: alphaId });
    expect(moved.body.data.workspace_id).toBe(alphaId);
    expect((await call(gw, 'GET', `/keys/${key.hash}`, { key: alphaKey })).status).toBe(200);
    // A key of a deleted workspace stays disabled: it does not move out either.
    const gone = (await admin('POST', '/workspaces', { name: 'Gone', slug: 'gone' })).body.data.id;
    const stranded = (await admin('POST', '/keys', { name: 'stranded', workspace_id: gone })).body.data;
    await admin('PATCH', `/keys/${stranded.hash}`, { disabled: true });
    expect((await admin('DELETE', `/workspaces/${gone}`)).status).toBe(200);
    const revived = await admin('PATCH', `/keys/${stranded.hash}`, { workspace_id: alphaId });
    expect(revived.status).toBe(400);
    expect(revived.body.error.message).toBe(
      `workspace_id: this key's workspace ${gone} was deleted; its keys cannot move to another workspace`,
    );
    const unknown = await admin('PATCH', `/keys/${key.hash}`, { workspace_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('workspace_id 00000000-0000-4000-8000-000000000000 is not a workspace of this organization');
  });

  it('never shows a scoped key of the default workspace the organization’s management keys', async () => {
    const defaultId = (await admin('GET', '/workspaces')).body.data[0].id;
    const scoped = await scopedKey(defaultId, 'default manager');
    const keys = await call(gw, 'GET', '/keys', { key: scoped });
    expect(keys.status).toBe(200);
    expect(keys.body.data.some((k: { is_management_key: boolean; name: string }) => k.name === 'Bootstrap management key')).toBe(false);
    const bootstrap = (await admin('GET', '/keys')).body.data.find((k: { name: string }) => k.name === 'Bootstrap management key');
    expect((await call(gw, 'PATCH', `/keys/${bootstrap.hash}`, { key: scoped, body: { disabled: true } })).status).toBe(404);
  });

  it('scopes a management key made for a workspace admin to the workspace, and refuses one for a plain member', async () => {
    const now = new Date();
    const context = { store: gw.store, organizationId: gw.organizationId, redisUrl: undefined, now };
    const member = (u: string) =>
      addMember(gw.store.db, gw.organizationId, { email: `${u}@example.com`, role: 'member' }, () => u, now.toISOString());
    await member('user-ada');
    await member('user-bob');
    await admin('POST', `/workspaces/${alphaId}/members/add`, { user_ids: ['user-ada'], role: 'admin' });
    await admin('POST', `/workspaces/${alphaId}/members/add`, { user_ids: ['user-bob'], role: 'member' });

    const { key, row } = await createKey(context, { name: 'ada', management: true, workspace: alphaId, creatorUserId: 'user-ada' });
    expect(row.management_scope).toBe('workspace');
    expect((await call(gw, 'GET', '/workspaces', { key })).body).toMatchObject({ total_count: 1, data: [{ id: alphaId }] });
    expect((await call(gw, 'GET', `/keys/${beta.keyHash}`, { key })).status).toBe(404);

    await expect(createKey(context, { name: 'bob', management: true, workspace: alphaId, creatorUserId: 'user-bob' })).rejects.toThrow(
      "creator_user_id user-bob is not an admin of the key's workspace",
    );
    const operator = await createKey(context, { name: 'ops', management: true, workspace: alphaId, workspaceScope: true });
    expect(operator.row.management_scope).toBe('workspace');
    expect((await createKey(context, { name: 'org', management: true })).row.management_scope).toBeNull();
  });
});
