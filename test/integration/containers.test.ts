import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTAINER_DEFAULTS } from '../../src/containers/container-settings.js';
import { Containers } from '../../src/containers/containers.js';
import { SANDBOX_PROGRAMS, Sandbox } from '../../src/containers/sandbox/run-in-sandbox.js';
import { directoryStorage } from '../../src/files/storage/directory-storage.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

const PER_SESSION = 0.01;
const PER_SECOND = 0.001;
const QUOTA_BYTES = 4000;
const PROGRAM = "Run it with code_interpreter:\n```python\nopen('report.txt', 'w').write('hello')\nprint(6 * 7)\n```";
const runs = (await new Sandbox(SANDBOX_PROGRAMS, CONTAINER_DEFAULTS.limits).unavailable()) === undefined || process.env.CI === 'true';

describe.runIf(runs).each(testEngines)('containers on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let dir: string;
  let alphaKey: string;
  let betaKey: string;
  const admin = (method: string, path: string, body?: unknown) => call(gw, method, path, { key: gw.managementKey, body });
  const as = (key: string, method: string, path: string, body?: unknown) => call(gw, method, path, { key, body });
  const children = (parent: string) =>
    gw.store.db.selectFrom('generations').selectAll().where('parent_generation_id', '=', parent).execute();

  beforeAll(async () => {
    sim = await startSimulator();
    dir = mkdtempSync(join(tmpdir(), 'mg-containers-it-'));
    chmodSync(dir, 0o711);
    gw = await startGateway(engine, {
      catalog: simCatalog(sim.url, ['alpha'], [{ id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] }]),
      files: { storage: directoryStorage(join(dir, 'files')), maxBytes: QUOTA_BYTES, workspaceQuotaBytes: QUOTA_BYTES },
      containers: {
        ...CONTAINER_DEFAULTS,
        directory: join(dir, 'containers'),
        pricing: { perSession: PER_SESSION, perSecond: PER_SECOND },
      },
    });
    const alphaId = (await admin('POST', '/workspaces', { name: 'Alpha', slug: 'alpha' })).body.data.id;
    const betaId = (await admin('POST', '/workspaces', { name: 'Beta', slug: 'beta' })).body.data.id;
    alphaKey = (await admin('POST', '/keys', { name: 'alpha', workspace_id: alphaId })).body.key;
    betaKey = (await admin('POST', '/keys', { name: 'beta', workspace_id: betaId })).body.key;
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the model’s code in a new container, bills the run on a row of its own and lists its files', async () => {
    const answer = await as(alphaKey, 'POST', '/chat/completions', {
      model: 'sim/fast',
      messages: [{ role: 'user', content: PROGRAM }],
      tools: [{ type: 'service:code_interpreter' }],
    });
    expect(answer.status).toBe(200);
    const [run] = await children(answer.body.id);
    expect(run).toMatchObject({ api_type: 'code_interpreter', model: 'code_interpreter', status: 'success' });
    const details = JSON.parse(run!.routing!);
    expect(details).toMatchObject({ exit_code: 0, first_in_session: true });
    const seconds = Math.ceil(details.duration_ms / 1000);
    expect(Number(run!.total_cost)).toBeCloseTo(PER_SESSION + PER_SECOND * seconds, 12);
    expect(answer.body.usage.cost).toBeGreaterThanOrEqual(Number(run!.total_cost));

    const list = await as(alphaKey, 'GET', '/containers');
    expect(list.body).toMatchObject({ object: 'list', has_more: false });
    const container = list.body.data[0];
    expect(container).toMatchObject({ id: details.container_id, object: 'container', status: 'running' });
    expect(container.expires_after).toEqual({ anchor: 'last_active_at', minutes: 30 * 24 * 60 });
    expect(container.id.length).toBeLessThanOrEqual(20);

    const files = await as(alphaKey, 'GET', `/containers/${container.id}/files`);
    expect(files.body.data).toEqual([
      expect.objectContaining({
        object: 'container.file',
        path: '/mnt/data/report.txt',
        bytes: 5,
        source: 'assistant',
        container_id: container.id,
      }),
    ]);
    const fileId = files.body.data[0].id;
    expect((await as(alphaKey, 'GET', `/containers/${container.id}/files/${fileId}`)).body.id).toBe(fileId);
    const content = await fetch(`${gw.baseUrl}/containers/${container.id}/files/${fileId}/content`, {
      headers: { authorization: `Bearer ${alphaKey}` },
    });
    expect(await content.text()).toBe('hello');

    const promoted = await as(alphaKey, 'POST', `/containers/${container.id}/files/${fileId}/promote`);
    expect(promoted.body).toMatchObject({ object: 'file', filename: 'report.txt', bytes: 5, mime_type: 'text/plain' });
    const copy = await fetch(`${gw.baseUrl}/files/${promoted.body.id}/content`, { headers: { authorization: `Bearer ${alphaKey}` } });
    expect(await copy.text()).toBe('hello');

    // Another workspace's key finds nothing of it.
    for (const path of [
      `/containers/${container.id}`,
      `/containers/${container.id}/files`,
      `/containers/${container.id}/files/${fileId}`,
    ]) {
      const other = await as(betaKey, 'GET', path);
      expect(other.status).toBe(404);
      expect(other.body.error.code).toBe(404);
    }
    expect((await as(betaKey, 'GET', '/containers')).body.data).toEqual([]);
  });

  it('reuses a named container through the Responses API, and its files count toward the quota', async () => {
    const { id } = (await as(alphaKey, 'POST', '/containers', { name: 'kept' })).body;
    const answer = await as(alphaKey, 'POST', '/responses', {
      model: 'sim/fast',
      input: "Use code_interpreter:\n```python\nopen('big.bin', 'wb').write(b'x' * 3000)\n```",
      tools: [{ type: 'code_interpreter', container: id }],
    });
    expect(answer.status).toBe(200);
    // The run is shown before the answer that read it; its outputs only when `include` asks for them, as OpenAI's.
    expect(answer.body.output.map((item: { type: string }) => item.type)).toEqual(['code_interpreter_call', 'message']);
    expect(answer.body.output[0]).toMatchObject({
      type: 'code_interpreter_call',
      id: expect.stringMatching(/^ci_/),
      status: 'completed',
      code: "open('big.bin', 'wb').write(b'x' * 3000)\n",
      container_id: id,
      outputs: null,
    });
    const files = (await as(alphaKey, 'GET', `/containers/${id}/files`)).body.data;
    expect(files.map((f: { path: string }) => f.path)).toEqual(['/mnt/data/big.bin']);
    // 3000 bytes here, 5 in the first container and 5 in the promoted file: 1000 more pass the quota.
    const form = new FormData();
    form.append('file', new Blob(['y'.repeat(1000)], { type: 'text/plain' }), 'more.txt');
    const upload = await fetch(`${gw.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${alphaKey}` }, body: form });
    expect(upload.status).toBe(413);
  });

  it('pages containers and deletes one with its files', async () => {
    for (const name of ['p1', 'p2']) await as(alphaKey, 'POST', '/containers', { name });
    const first = (await as(alphaKey, 'GET', '/containers?limit=2&order=asc')).body;
    expect(first.has_more).toBe(true);
    const rest = (await as(alphaKey, 'GET', `/containers?limit=10&order=asc&after=${first.last_id}`)).body;
    expect(rest.data.map((c: { name: string }) => c.name)).toEqual(['p1', 'p2']);
    const id = rest.data[1].id;
    expect((await as(betaKey, 'DELETE', `/containers/${id}`)).status).toBe(404);
    expect((await as(alphaKey, 'DELETE', `/containers/${id}`)).body).toEqual({ id, object: 'container.deleted', deleted: true });
    expect((await as(alphaKey, 'GET', `/containers/${id}`)).status).toBe(404);
    expect(existsSync(join(dir, 'containers', id))).toBe(false);
  });

  it('expires containers unused for 30 days', async () => {
    const { id } = (await as(alphaKey, 'POST', '/containers', { name: 'old' })).body;
    const later = () => new Date(Date.now() + 31 * 86_400_000);
    const containers = new Containers({
      db: gw.store.db,
      clock: later,
      sandbox: new Sandbox(SANDBOX_PROGRAMS, CONTAINER_DEFAULTS.limits),
      directory: join(dir, 'containers'),
      workspaceQuotaBytes: QUOTA_BYTES,
      fileStorage: directoryStorage(join(dir, 'files')),
    });
    expect(await containers.expire()).toBeGreaterThanOrEqual(1);
    expect((await as(alphaKey, 'GET', `/containers/${id}`)).status).toBe(404);
    expect(existsSync(join(dir, 'containers', id))).toBe(false);
  });

  it('runs the code of a streamed Response (openai SDK), in OpenAI’s events, billed on a row of its own', async () => {
    const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: alphaKey, maxRetries: 0 });
    const stream = openai.responses.stream({
      model: 'sim/fast',
      input: PROGRAM,
      tools: [{ type: 'code_interpreter', container: { type: 'auto' } }],
      include: ['code_interpreter_call.outputs'],
    });
    const events: { type: string; output_index?: number }[] = [];
    for await (const event of stream) events.push(event);
    const response = await stream.finalResponse();

    const code = events.filter((e) => e.output_index === 0).map((e) => e.type);
    expect(code).toEqual([
      'response.output_item.added',
      'response.code_interpreter_call.in_progress',
      'response.code_interpreter_call_code.delta',
      'response.code_interpreter_call_code.done',
      'response.code_interpreter_call.interpreting',
      'response.code_interpreter_call.completed',
      'response.output_item.done',
    ]);
    // The code's item is done before the message that reads its result opens.
    const done = events.findIndex((e) => e.type === 'response.output_item.done' && e.output_index === 0);
    const message = events.findIndex((e) => e.type === 'response.output_item.added' && e.output_index === 1);
    expect(done).toBeLessThan(message);
    expect(events.find((e) => e.type === 'response.output_item.added')).toMatchObject({
      item: { type: 'code_interpreter_call', status: 'in_progress', code: '', outputs: null },
    });
    expect(events.find((e) => e.type === 'response.code_interpreter_call_code.done')).toMatchObject({
      code: "open('report.txt', 'w').write('hello')\nprint(6 * 7)\n",
    });

    const [run] = await children(response.id);
    expect(run).toMatchObject({ api_type: 'code_interpreter', model: 'code_interpreter', status: 'success' });
    const details = JSON.parse(run!.routing!);
    expect(details).toMatchObject({ exit_code: 0, first_in_session: true });
    expect(response.output.map((item) => item.type)).toEqual(['code_interpreter_call', 'message']);
    expect(response.output[0]).toMatchObject({
      status: 'completed',
      container_id: details.container_id,
      outputs: [{ type: 'logs', logs: '42\n' }],
    });
    expect(response.output_text).toContain('42');
    const usage = response.usage as unknown as { cost: number };
    expect(usage.cost).toBeGreaterThanOrEqual(Number(run!.total_cost));
    expect(Number(run!.total_cost)).toBeCloseTo(PER_SESSION + PER_SECOND * Math.ceil(details.duration_ms / 1000), 12);
    // The request's own row records the loop that ran the code.
    const parent = await gw.store.db.selectFrom('generations').selectAll().where('id', '=', response.id).executeTakeFirstOrThrow();
    expect(parent.routing).toContain('code_interpreter');
  });

  it('answers a Response’s code run with its outputs when include asks for them (openai SDK)', async () => {
    const openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: alphaKey, maxRetries: 0 });
    const response = await openai.responses.create({
      model: 'sim/fast',
      input: "Run it with code_interpreter:\n```python\nimport sys\nprint('out')\nsys.exit('err')\n```",
      tools: [{ type: 'code_interpreter', container: 'auto' }],
      include: ['code_interpreter_call.outputs'],
    });
    expect(response.output[0]).toMatchObject({
      type: 'code_interpreter_call',
      status: 'completed',
      outputs: [{ type: 'logs', logs: 'out\nerr\n' }],
    });
    expect(await children(response.id)).toHaveLength(1);

    // The conversation goes on with the answer's items sent back (the gateway keeps none): the model reads what the run printed.
    const next = await openai.responses.create({
      model: 'sim/fast',
      input: [response.output[0] as OpenAI.Responses.ResponseCodeInterpreterToolCall],
    });
    expect(next.output_text).toContain('The tool said');
    expect(next.output_text).toContain('out');
  });

  it('copies the workspace’s files that file_ids names into the new container, and refuses another workspace’s (404 naming the field)', async () => {
    const upload = async (key: string, text: string, name: string) => {
      const form = new FormData();
      form.append('file', new Blob([text], { type: 'text/csv' }), name);
      const answer = await fetch(`${gw.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { id: string }).id;
    };
    const mine = await upload(alphaKey, 'a,b\n1,2\n', 'data.csv');
    const theirs = await upload(betaKey, 'secret', 'theirs.csv');
    const program = "Use code_interpreter:\n```python\nprint(open('data.csv').read().split()[1])\n```";
    const tool = (fileIds: string[]) => ({ type: 'code_interpreter', container: { type: 'auto', file_ids: fileIds } });

    const refused = await as(alphaKey, 'POST', '/responses', { model: 'sim/fast', input: program, tools: [tool([mine, theirs])] });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatchObject({ code: 404, message: expect.stringContaining('tools[0].container.file_ids[1]') });

    const answer = await as(alphaKey, 'POST', '/responses', {
      model: 'sim/fast',
      input: program,
      tools: [tool([mine])],
      include: ['code_interpreter_call.outputs'],
    });
    expect(answer.status).toBe(200);
    const [call] = answer.body.output;
    expect(call).toMatchObject({ type: 'code_interpreter_call', status: 'completed', outputs: [{ type: 'logs', logs: '1,2\n' }] });
    const files = (await as(alphaKey, 'GET', `/containers/${call.container_id}/files`)).body.data;
    expect(files).toEqual([expect.objectContaining({ path: '/mnt/data/data.csv', bytes: 8, source: 'user' })]);
  });

  it('copies nothing past the workspace’s quota: the model is told, the code does not run and no container is left', async () => {
    const form = new FormData();
    form.append('file', new Blob(['z'.repeat(3000)], { type: 'text/plain' }), 'big.txt');
    const upload = await fetch(`${gw.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${alphaKey}` }, body: form });
    const { id } = (await upload.json()) as { id: string };
    const before = (await as(alphaKey, 'GET', '/containers')).body.data.length;
    const answer = await as(alphaKey, 'POST', '/responses', {
      model: 'sim/fast',
      input: "Use code_interpreter:\n```python\nprint(len(open('big.txt').read()))\n```",
      tools: [{ type: 'code_interpreter', container: { type: 'auto', file_ids: [id] } }],
      include: ['code_interpreter_call.outputs'],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.output[0]).toMatchObject({ type: 'code_interpreter_call', status: 'failed', outputs: [] });
    expect(answer.body.output[0]).not.toHaveProperty('container_id');
    expect(answer.body.output[1].content[0].text).toContain('Storage quota exceeded');
    expect((await as(alphaKey, 'GET', '/containers')).body.data).toHaveLength(before);
    expect(await children(answer.body.id)).toEqual([]);
  });

  it('takes file_ids on chat’s service:code_interpreter entry too, each the workspace’s (404 naming the field), with a new container only', async () => {
    const form = new FormData();
    form.append('file', new Blob(['7'], { type: 'text/plain' }), 'seven.txt');
    const upload = await fetch(`${gw.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${betaKey}` }, body: form });
    const { id } = (await upload.json()) as { id: string };
    const program = "Use code_interpreter:\n```python\nprint(int(open('seven.txt').read()) * 6)\n```";
    const chat = (key: string, parameters: object) =>
      as(key, 'POST', '/chat/completions', {
        model: 'sim/fast',
        messages: [{ role: 'user', content: program }],
        tools: [
          { type: 'function', function: { name: 'other' } },
          { type: 'service:code_interpreter', parameters },
        ],
      });

    const refused = await chat(alphaKey, { file_ids: [id] });
    expect(refused.status).toBe(404);
    expect(refused.body.error.message).toContain('tools[1].parameters.file_ids[0]');
    const named = await chat(betaKey, { container: 'cntr_someone', file_ids: [id] });
    expect(named.status).toBe(400);
    expect(named.body.error.message).toContain('file_ids with container "auto" only');

    const answer = await chat(betaKey, { file_ids: [id] });
    expect(answer.status).toBe(200);
    const [run] = await children(answer.body.id);
    expect(answer.body.choices[0].message.content).toContain('42');
    const files = (await as(betaKey, 'GET', `/containers/${JSON.parse(run!.routing!).container_id}/files`)).body.data;
    expect(files).toEqual([expect.objectContaining({ path: '/mnt/data/seven.txt', source: 'user' })]);
  });
});

describe.each(testEngines.slice(0, 1))('containers without bubblewrap on $name', (engine) => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway(engine, {
      containers: { ...CONTAINER_DEFAULTS, programs: { ...SANDBOX_PROGRAMS, bwrap: '/nonexistent/bwrap' } },
    });
  });
  afterAll(async () => gw?.close());

  it('refuses to make one (503), so never runs code unsandboxed', async () => {
    const answer = await call(gw, 'POST', '/containers', { key: gw.managementKey, body: {} });
    expect(answer.status).toBe(503);
    expect(answer.body.error.message).toContain('bwrap is not installed at /nonexistent/bwrap');
  });
});
