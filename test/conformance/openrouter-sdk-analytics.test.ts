import { OpenRouter } from '@openrouter/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * The official @openrouter/sdk's activity, analytics and credits operations
 * against the running gateway: every answer must parse with the SDK's own
 * schemas (it throws when one does not), and its errors arrive as the SDK's.
 */
describe.each(testEngines)('@openrouter/sdk analytics and credits on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let sdk: OpenRouter;
  let plain: OpenRouter;
  const clock = testClock('2026-11-20T09:00:00.000Z');
  const client = (apiKey: string) => new OpenRouter({ apiKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, {
      clock: clock.clock,
      catalog: simCatalog(
        sim.url,
        ['alpha'],
        [{ id: 'sim/chat', endpoints: [{ provider: 'alpha', upstream: 'sim-model', prompt: 0.00001, completion: 0.00002 }] }],
      ),
    });
    sdk = client(gw.managementKey);
    const created = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'sdk' } })).body;
    plain = client(created.key);
    for (const _ of [1, 2]) {
      const res = await call(gw, 'POST', '/chat/completions', {
        key: created.key,
        body: { model: 'sim/chat', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(res.status).toBe(200);
    }
    clock.set('2026-11-21T12:00:00.000Z');
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('analytics.getUserActivity', async () => {
    const activity = await sdk.analytics.getUserActivity();
    expect(activity.data).toEqual([
      expect.objectContaining({
        date: '2026-11-20',
        model: 'sim/chat',
        modelPermaslug: 'sim/chat',
        endpointId: 'sim/chat@alpha',
        providerName: 'alpha',
        requests: 2,
        byokUsageInference: 0,
      }),
    ]);
    expect(activity.data[0]!.usage).toBeGreaterThan(0);
    expect((await sdk.analytics.getUserActivity({ date: '2026-11-19', groupBy: 'workspace' })).data).toEqual([]);
    await expect(sdk.analytics.getUserActivity({ date: '2026-11-21' })).rejects.toMatchObject({ statusCode: 400 });
    await expect(plain.analytics.getUserActivity()).rejects.toMatchObject({ statusCode: 403 });
  });

  it('analytics.getAnalyticsMeta and analytics.queryAnalytics', async () => {
    const meta = await sdk.analytics.getAnalyticsMeta();
    expect(meta.data.metrics).toContainEqual({
      name: 'request_count',
      displayLabel: 'Request Count',
      isRate: false,
      displayFormat: 'number',
    });
    expect(meta.data.granularities.map((g) => g.name)).toEqual(['hour', 'day']);
    const result = await sdk.analytics.queryAnalytics({
      requestBody: {
        metrics: ['request_count', 'total_usage'],
        dimensions: ['model'],
        granularity: 'day',
        limit: 100,
        timeRange: { start: new Date('2026-11-14T00:00:00Z'), end: new Date('2026-11-21T00:00:00Z') },
      },
    });
    // The SDK keeps no field of a row (its row schema is an empty object); the count and the metadata are what it reads.
    expect(result.data.data).toHaveLength(1);
    expect(result.data.metadata).toEqual({ queryTimeMs: expect.any(Number), rowCount: 1, truncated: false });
    await expect(sdk.analytics.queryAnalytics({ requestBody: { metrics: ['app_count'] } })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('metrics[0] "app_count" is not a metric this gateway records'),
    });
    await expect(plain.analytics.getAnalyticsMeta()).rejects.toMatchObject({ statusCode: 403 });
  });

  it('credits.getCredits', async () => {
    const before = await sdk.credits.getCredits();
    expect(before.data.totalCredits).toBe(0);
    expect(before.data.totalUsage).toBeGreaterThan(0);
    expect((await call(gw, 'POST', '/credits/grants', { key: gw.managementKey, body: { amount: 25 } })).status).toBe(201);
    expect((await sdk.credits.getCredits()).data).toEqual({ totalCredits: 25, totalUsage: before.data.totalUsage });
    await expect(plain.credits.getCredits()).rejects.toMatchObject({ statusCode: 403 });
  });
});
