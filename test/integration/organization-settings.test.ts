import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { makePdf, pdfDataUrl } from '../support/make-pdf.js';
import { simCatalog } from '../support/sim-gateway.js';

const messages = [{ role: 'user', content: 'hello there' }];

describe.each(testEngines)('organization settings on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let memberKey: string;
  const settings = (body?: unknown, key = gw.managementKey) =>
    call(gw, body === undefined ? 'GET' : 'PATCH', '/organization/settings', { key, ...(body !== undefined ? { body } : {}) });
  const chat = (body: Record<string, unknown> = {}) =>
    call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { messages, model: 'sim/multi', ...body },
      headers: { 'x-service-metadata': 'enabled' },
    });

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta', 'gamma'],
      [
        {
          id: 'sim/multi',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model', prompt: 0.000001, completion: 0.000001 },
            { provider: 'beta', upstream: 'sim-model', prompt: 0.000002, completion: 0.000002 },
            { provider: 'gamma', upstream: 'sim-model', prompt: 0.000003, completion: 0.000003 },
          ],
        },
      ],
    );
    gw = await startGateway(engine, { catalog });
    memberKey = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'member' } })).body.key;
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('starts empty and is for management keys only', async () => {
    expect((await settings()).body).toEqual({
      data: { provider: null, plugins: null, store_content: false, byok_fallback: true, updated_at: null },
    });
    expect((await settings(undefined, memberKey)).status).toBe(403);
    expect((await settings({ provider: { ignore: ['alpha'] } }, memberKey)).status).toBe(403);
  });

  it.each([
    ['an unknown field', { colour: 'blue' }, 'unknown property "colour"'],
    ['an empty body', {}, 'Request body must have at least 1 entries'],
    ['a bad provider preference', { provider: { sort: 'cheapest' } }, 'provider.sort'],
    ['an unknown plugin', { plugins: [{ id: 'teleport' }] }, 'plugins[0].id must be one of "auto-router"'],
    ['a plugin named twice', { plugins: [{ id: 'web' }, { id: 'web', max_results: 3 }] }, 'plugins[1].id "web" is already set'],
  ])('refuses %s with a 400 naming it', async (_, body, named) => {
    const res = await settings(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.message).toContain(named);
  });

  it('applies the default provider preferences to every chat, merged with the request’s', async () => {
    const saved = await settings({ provider: { ignore: ['alpha'] } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ provider: { ignore: ['alpha'] }, plugins: null, updated_at: expect.any(String) });

    const res = await chat();
    expect(res.body.provider).toBe('beta');
    expect(res.body.service_metadata.endpoints.excluded).toContainEqual(
      expect.objectContaining({ provider: 'alpha', reason: 'provider.ignore: in provider.ignore' }),
    );
    // The request's ignore list is merged with the organization's, not replacing it.
    expect((await chat({ provider: { ignore: ['beta'] } })).body.provider).toBe('gamma');
    // A request scalar wins over a default one.
    await settings({ provider: { ignore: ['alpha'], sort: 'price' } });
    expect((await chat({ provider: { sort: 'latency' } })).body.service_metadata.endpoints.available[0].reason).toContain(
      'sort by latency',
    );
  });

  it('keeps default plugins, which a request’s own fields override', async () => {
    const plugins = [{ id: 'auto-router', allowed_models: ['sim/*'] }];
    const saved = await settings({ plugins });
    expect(saved.body.data).toMatchObject({ provider: { ignore: ['alpha'], sort: 'price' }, plugins });
    expect((await settings()).body.data.plugins).toEqual(plugins);
    expect((await settings({ provider: null, plugins: null })).body.data).toMatchObject({ provider: null, plugins: null });
    expect((await chat()).body.provider).toBe('alpha');
  });

  it('turns file-parser off by default with enabled: false; a request can turn it back on', async () => {
    const file = { type: 'file', file: { filename: 'report.pdf', file_data: pdfDataUrl(await makePdf(['Revenue grew 12 percent.'])) } };
    const withPdf = [{ role: 'user', content: [{ type: 'text', text: 'Summarize' }, file] }];
    const parserEntry = (body: any) => body.service_metadata.pipeline.find((e: { name: string }) => e.name === 'file-parser');
    expect(parserEntry((await chat({ messages: withPdf })).body)).toMatchObject({ summary: '1 PDF as text' });

    expect((await settings({ plugins: [{ id: 'file-parser', enabled: false }] })).status).toBe(200);
    const off = await chat({ messages: withPdf });
    expect(off.status).toBe(200);
    expect(parserEntry(off.body)).toBeUndefined();
    // The file went upstream as it was sent.
    expect((await readSimStats(sim.url)).lastRequestBody.messages[0].content[1]).toEqual(file);

    const on = await chat({ messages: withPdf, plugins: [{ id: 'file-parser', enabled: true }] });
    expect(parserEntry(on.body)).toMatchObject({ summary: '1 PDF as text' });
    await settings({ plugins: null });
  });
});

const postgres = testEngines.find((e) => e.name === 'postgres');

describe.skipIf(!postgres)('organization settings across instances sharing PostgreSQL', () => {
  let sim: Simulator;
  let a: RunningGateway;
  let b: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta'],
      [
        {
          id: 'sim/multi',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model', prompt: 0.000001 },
            { provider: 'beta', upstream: 'sim-model', prompt: 0.000002 },
          ],
        },
      ],
    );
    a = await startGateway(postgres!, { catalog });
    b = await startGateway(postgres!, { catalog, databaseUrl: a.store.url });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await sim.close();
  });

  it('reach the other instance’s cache through the change feed', async () => {
    const served = async () =>
      (await call(b, 'POST', '/chat/completions', { key: b.managementKey, body: { messages, model: 'sim/multi' } })).body.provider;
    expect(await served()).toBe('alpha'); // b has now cached the (empty) settings
    await call(a, 'PATCH', '/organization/settings', { key: a.managementKey, body: { provider: { ignore: ['alpha'] } } });
    const deadline = Date.now() + 2000;
    let provider = await served();
    while (provider !== 'beta' && Date.now() < deadline) provider = await served();
    expect(provider).toBe('beta');
  });
});
