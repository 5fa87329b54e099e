import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { rerankSimCatalog } from '../support/rerank-sim-catalog.js';

/** Guardrails govern /rerank as they do chat: its query and documents are scanned, its endpoints filtered. */
describe('guardrails on rerank', () => {
  let gw: RunningGateway;
  let key: { key: string; hash: string };
  const admin = (method: string, path: string, body?: unknown) =>
    call(gw, method, path, { key: gw.managementKey, ...(body !== undefined ? { body } : {}) });
  const rerank = (query: string, documents: string[]) =>
    call(gw, 'POST', '/rerank', { key: key.key, body: { model: 'local/bm25', query, documents } });
  async function guard(rules: Record<string, unknown>) {
    const id = (await admin('POST', '/guardrails', { name: 'Rerank guard', ...rules })).body.data.id;
    await admin('POST', `/guardrails/${id}/assignments/keys`, { key_hashes: [key.hash] });
    return id;
  }

  beforeAll(async () => {
    gw = await startGateway(testEngines[0]!, { catalog: rerankSimCatalog('http://127.0.0.1:9', []) });
    const made = (await admin('POST', '/keys', { name: 'rerank' })).body;
    key = { key: made.key, hash: made.data.hash };
  });
  afterAll(() => gw.close());

  it('blocks a keyword in the query or documents, redacts PII in documents, and drops disallowed providers', async () => {
    const keywords = await guard({ blocked_keywords: ['falcon'] });
    const blocked = await rerank('birds', ['the falcon flies']);
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.metadata.patterns).toEqual(['falcon']);
    await admin('DELETE', `/guardrails/${keywords}`);

    const pii = await guard({ content_filter_builtins: [{ slug: 'email', action: 'redact' }] });
    const redacted = await rerank('contact', ['write to ada@example.org', 'nothing here']);
    expect(redacted.status).toBe(200);
    expect(redacted.body.results.map((r: { document: { text: string } }) => r.document.text)).toContain('write to [EMAIL]');
    await admin('DELETE', `/guardrails/${pii}`);

    await guard({ ignored_providers: ['gateway'] });
    const refused = await rerank('q', ['d']);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Request blocked by guardrail Rerank guard: no endpoint it allows serves local/bm25');
  });
});
