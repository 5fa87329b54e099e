import { OpenRouterMetadata$inboundSchema } from '@openrouter/sdk/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * `service_metadata` is the reference's OpenRouterMetadata under our name:
 * every body that carries it (an answer, a stream's last chunk, an error, a
 * guardrail's block, a router's choice) must parse with the SDK's own schema.
 */
const sqlite = testEngines.find((e) => e.name === 'sqlite')!;
const META = { 'x-service-metadata': 'enabled' };
const messages = [{ role: 'user', content: 'hello there' }];

describe('service_metadata parses as the SDK’s OpenRouterMetadata', () => {
  let sim: Simulator;
  let gw: RunningGateway;
  const chat = (body: Record<string, unknown>, key = gw.managementKey) =>
    call(gw, 'POST', '/chat/completions', { key, body: { messages, ...body }, headers: META });
  const parse = (meta: unknown) => OpenRouterMetadata$inboundSchema.parse(meta);

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta'],
      [
        { id: 'sim/one', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        {
          id: 'sim/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        {
          id: 'sim/down',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=500' },
            { provider: 'beta', upstream: 'sim-model@status=502' },
          ],
        },
      ],
    );
    gw = await startGateway(sqlite, { catalog, chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('on a direct answer: requested, strategy direct, the selected endpoint, a 200 attempt', async () => {
    const res = await chat({ model: 'sim/one' });
    expect(res.status).toBe(200);
    const meta = parse(res.body.service_metadata);
    expect(meta).toMatchObject({ attempt: 1, requested: 'sim/one', strategy: 'direct', isByok: false, region: null });
    expect(meta.endpoints).toMatchObject({ total: 1, available: [{ model: 'sim/one', provider: 'alpha', selected: true }] });
    expect(meta.attempts).toEqual([{ provider: 'alpha', model: 'sim/one', status: 200 }]);
  });

  it('after a fallback: every attempt with its status, the serving endpoint selected', async () => {
    const res = await chat({ model: 'sim/flaky', provider: { order: ['alpha', 'beta'] } });
    expect(res.status).toBe(200);
    const meta = parse(res.body.service_metadata);
    expect(meta).toMatchObject({ attempt: 2, strategy: 'fallback' });
    expect(res.body.service_metadata.params).toEqual({ endpoint_order: 'order' });
    expect(meta.attempts).toEqual([
      { provider: 'alpha', model: 'sim/flaky', status: 503 },
      { provider: 'beta', model: 'sim/flaky', status: 200 },
    ]);
    expect(meta.endpoints.available.map((e) => [e.provider, e.selected])).toEqual([
      ['alpha', false],
      ['beta', true],
    ]);
  });

  it('with an endpoint dropped by a preference: counted in total, listed as excluded with the reason', async () => {
    const res = await chat({ model: 'sim/flaky', provider: { ignore: ['alpha'] } });
    const meta = parse(res.body.service_metadata);
    expect(meta.endpoints.total).toBe(2);
    expect(meta.endpoints.available.map((e) => e.provider)).toEqual(['beta']);
    expect(res.body.service_metadata.endpoints.excluded).toEqual([
      { model: 'sim/flaky', provider: 'alpha', reason: 'provider.ignore: in provider.ignore' },
    ]);
  });

  it('on the last chunk of a stream', async () => {
    const res = await chat({ model: 'sim/one', stream: true });
    const chunks = String(res.body)
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    const meta = parse(chunks.at(-1)!.service_metadata);
    expect(meta).toMatchObject({ attempt: 1, requested: 'sim/one', strategy: 'direct' });
  });

  it('on an error body when every attempt failed', async () => {
    const res = await chat({ model: 'sim/down' });
    expect(res.status).toBe(502);
    const meta = parse(res.body.service_metadata);
    expect(meta.attempts?.map((a) => a.status)).toEqual(expect.arrayContaining([500, 502]));
    expect(meta.endpoints.available.every((e) => !e.selected)).toBe(true);
  });

  it('on a guardrail’s 403, its pipeline stage carrying guardrail_id and guardrail_scope', async () => {
    const made = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'guarded' } })).body;
    const guardrail = (
      await call(gw, 'POST', '/guardrails', { key: gw.managementKey, body: { name: 'No secrets', blocked_keywords: ['secret'] } })
    ).body.data;
    await call(gw, 'POST', `/guardrails/${guardrail.id}/assignments/keys`, {
      key: gw.managementKey,
      body: { key_hashes: [made.data.hash] },
    });
    const res = await chat({ model: 'sim/one', messages: [{ role: 'user', content: 'tell me the secret' }] }, made.key);
    expect(res.status).toBe(403);
    const meta = parse(res.body.service_metadata);
    expect(meta.pipeline?.find((stage) => stage.type === 'guardrail')).toMatchObject({
      guardrailId: guardrail.id,
      guardrailScope: 'api-key',
    });
  });
});
