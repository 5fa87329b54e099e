import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * A client's bad request never counts against an upstream's health: chats
 * whose tools nest 6000 levels deep are refused at validation with 400, and
 * the endpoint they named keeps serving everyone else (it used to overflow
 * the stack while being serialized, be taken for a connection failure, and
 * leave the endpoint marked unhealthy for 30 s).
 */
const sqlite = testEngines.find((e) => e.name === 'sqlite')!;

describe('endpoint health and bad requests', () => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    // Two endpoints at one price: the first is served while it is healthy.
    const catalog = simCatalog(
      sim.url,
      ['first', 'second'],
      [
        {
          id: 'iso/model',
          endpoints: [
            { provider: 'first', upstream: 'sim-model' },
            { provider: 'second', upstream: 'sim-model' },
          ],
        },
      ],
    );
    gw = await startGateway(sqlite, { catalog });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const chat = (body: string) => call(gw, 'POST', '/chat/completions', { key: gw.managementKey, body });
  const hello = '{"model":"iso/model","messages":[{"role":"user","content":"hi"}]}';

  it('answers 5 chats with 6000-level tool parameters with 400, and the endpoint stays healthy', async () => {
    expect((await chat(hello)).body.provider).toBe('first');
    const parameters = `${'{"type":"object","properties":{"a":'.repeat(6000)}{"type":"string"}${'}}'.repeat(6000)}`;
    const deep = `{"model":"iso/model","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${parameters}}}]}`;
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => chat(deep)));
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(
        /^tools\[0\]\.function\.parameters\.properties\.a.* nests objects and arrays deeper than 64 levels/,
      );
    }
    const after = await chat(hello);
    expect(after.status).toBe(200);
    expect(after.body.provider).toBe('first');
  });
});
