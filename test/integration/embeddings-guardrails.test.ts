import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { taskSimCatalog } from '../support/task-sim-catalog.js';

/** Guardrails govern /embeddings as they do chat: its texts are scanned, its endpoints filtered. */
describe('guardrails on embeddings', () => {
  let sim: Simulator;
  let gw: RunningGateway;
  let key: { key: string; hash: string };
  const admin = (method: string, path: string, body?: unknown) =>
    call(gw, method, path, { key: gw.managementKey, ...(body !== undefined ? { body } : {}) });
  const post = (path: string, body: Record<string, unknown>) => call(gw, 'POST', path, { key: key.key, body });
  async function guard(rules: Record<string, unknown>) {
    const id = (await admin('POST', '/guardrails', { name: 'Guard', ...rules })).body.data.id;
    await admin('POST', `/guardrails/${id}/assignments/keys`, { key_hashes: [key.hash] });
    return id;
  }

  beforeAll(async () => {
    sim = await startSimulator();
    const embeddings = taskSimCatalog(sim.url, 'embeddings', [
      { id: 'sim/embed', endpoints: [{ provider: 'openai-a', upstream: 'sim-embed' }] },
    ]);
    gw = await startGateway(testEngines[0]!, { catalog: embeddings });
    const made = (await admin('POST', '/keys', { name: 'guarded' })).body;
    key = { key: made.key, hash: made.data.hash };
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('blocks a keyword in an embeddings input, redacts PII before it is embedded, and drops disallowed providers', async () => {
    const keywords = await guard({ blocked_keywords: ['falcon'] });
    const blocked = await post('/embeddings', { model: 'sim/embed', input: ['birds', 'the falcon flies'] });
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.metadata.patterns).toEqual(['falcon']);
    await admin('DELETE', `/guardrails/${keywords}`);

    const pii = await guard({ content_filter_builtins: [{ slug: 'email', action: 'redact' }] });
    expect((await post('/embeddings', { model: 'sim/embed', input: 'write to ada@example.org' })).status).toBe(200);
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({ input: ['write to [EMAIL]'] });
    await admin('DELETE', `/guardrails/${pii}`);

    const providers = await guard({ ignored_providers: ['openai-a'] });
    const refused = await post('/embeddings', { model: 'sim/embed', input: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Request blocked by guardrail Guard: no endpoint it allows serves sim/embed');
    await admin('DELETE', `/guardrails/${providers}`);
  });
});
