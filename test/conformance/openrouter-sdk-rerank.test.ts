import { OpenRouter } from '@openrouter/sdk';
import * as errors from '@openrouter/sdk/models/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { rerankSimCatalog } from '../support/rerank-sim-catalog.js';

const documents = ['Berlin is the capital of Germany.', 'Paris is the capital of France.', 'Bananas are rich in potassium.'];
const query = 'What is the capital of France?';

/**
 * `rerank.rerank` of the official @openrouter/sdk against the running
 * gateway: every answer, success or error, must parse with the SDK's own
 * schemas (it throws a validation error when one does not).
 */
describe.each(testEngines)('@openrouter/sdk rerank on $name', (engine) => {
  const client = (gw: RunningGateway, apiKey = gw.managementKey) =>
    new OpenRouter({ apiKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });

  describe('with the default catalog', () => {
    let gw: RunningGateway;
    beforeAll(async () => {
      gw = await startGateway(engine);
    });
    afterAll(() => gw.close());

    it('reranks with local/bm25 with no provider configured', async () => {
      const result = await client(gw).rerank.rerank({ requestBody: { model: 'local/bm25', query, documents, topN: 2 } });
      if (typeof result === 'string') throw new Error(`expected JSON, got ${result}`);
      expect(result).toMatchObject({ id: expect.stringMatching(/^gen-/), model: 'local/bm25', provider: 'gateway' });
      expect(result.results.map((r) => [r.index, r.document.text])).toEqual([
        [1, documents[1]],
        [0, documents[0]],
      ]);
      expect(result.usage).toEqual({ searchUnits: 1, totalTokens: expect.any(Number), cost: 0 });
    });
  });

  describe('against the simulator', () => {
    let sim: Simulator;
    let gw: RunningGateway;
    beforeAll(async () => {
      sim = await startSimulator();
      const catalog = rerankSimCatalog(sim.url, [
        { id: 'sim/cohere', endpoints: [{ provider: 'cohere-a', upstream: 'sim-rerank', pricing: '{ request: 0.002 }' }] },
        { id: 'sim/jina', endpoints: [{ provider: 'jina-a', upstream: 'sim-rerank', pricing: '{ prompt: 0.0000001 }' }] },
        { id: 'sim/limited', endpoints: [{ provider: 'cohere-a', upstream: 'sim-rerank@status=429', pricing: '{ request: 0.002 }' }] },
        { id: 'sim/down', endpoints: [{ provider: 'cohere-a', upstream: 'sim-rerank@status=500', pricing: '{ request: 0.002 }' }] },
        { id: 'sim/unavailable', endpoints: [{ provider: 'jina-a', upstream: 'sim-rerank@status=503', pricing: '{ request: 0.002 }' }] },
      ]);
      gw = await startGateway(engine, { catalog, chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
    });
    afterAll(async () => {
      await gw.close();
      await sim.close();
    });

    it.each(['sim/cohere', 'sim/jina'])('parses a %s answer, extra SDK fields in the request tolerated', async (model) => {
      const result = await client(gw).rerank.rerank({
        requestBody: { model, query, documents, topN: 1, sessionId: 'sdk-session', user: 'alice', provider: { allowFallbacks: true } },
      });
      if (typeof result === 'string') throw new Error(`expected JSON, got ${result}`);
      expect(result.model).toBe(model);
      expect(result.results).toEqual([{ index: 1, relevanceScore: 5 / 6, document: { text: documents[1] } }]);
      expect(result.usage?.searchUnits).toBe(1);
      expect(result.usage?.cost).toBeGreaterThan(0);
    });

    it('raises the SDK’s typed error for every status the spec lists', async () => {
      const sdk = client(gw);
      const rerank = (model: string, over: Record<string, unknown> = {}) =>
        sdk.rerank.rerank({ requestBody: { model, query, documents, ...over } });
      await expect(rerank('sim/cohere', { topN: 0 })).rejects.toBeInstanceOf(errors.BadRequestResponseError);
      await expect(
        client(gw, 'sk-mg-v1-nope').rerank.rerank({ requestBody: { model: 'sim/cohere', query, documents } }),
      ).rejects.toBeInstanceOf(errors.UnauthorizedResponseError);
      await expect(rerank('nobody/nothing')).rejects.toBeInstanceOf(errors.NotFoundResponseError);
      await expect(rerank('sim/limited')).rejects.toBeInstanceOf(errors.TooManyRequestsResponseError);
      await expect(rerank('sim/down')).rejects.toBeInstanceOf(errors.BadGatewayResponseError);
      await expect(rerank('sim/unavailable')).rejects.toBeInstanceOf(errors.ServiceUnavailableResponseError);

      // A limit below what the rerank can cost: refused at admission, before any upstream call.
      const short = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'short', limit: 0.001 } });
      await expect(
        client(gw, short.body.key).rerank.rerank({ requestBody: { model: 'sim/cohere', query, documents } }),
      ).rejects.toBeInstanceOf(errors.PaymentRequiredResponseError);
    });
  });
});
