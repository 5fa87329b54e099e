import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * The gateway sends upstream only what the client sent or the operator
 * configured: the end-user fields (`user` and `safety_identifier` for
 * OpenAI-compatible hosts, `metadata.user_id` for Anthropic) go up, as a keyed
 * hash, only when the client named an end user. Hosts that refuse unknown
 * fields then see none from a client that sent none.
 */
const sqlite = testEngines.find((e) => e.name === 'sqlite')!;

describe('end-user fields upstream', () => {
  let sim: Simulator;
  let gw: RunningGateway;
  const upstreamBody = async (model: string, fields: Record<string, unknown>) => {
    const res = await call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { model, messages: [{ role: 'user', content: 'hi' }], ...fields },
    });
    expect(res.status).toBe(200);
    return (await readSimStats(sim.url)).lastRequestBody as Record<string, unknown>;
  };

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['compatible', { id: 'claude', kind: 'anthropic' }],
      [
        { id: 'sim/compatible', endpoints: [{ provider: 'compatible', upstream: 'sim-model' }] },
        { id: 'sim/claude', endpoints: [{ provider: 'claude', upstream: 'sim-model' }] },
      ],
    );
    gw = await startGateway(sqlite, { catalog });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it('adds no end-user field to an OpenAI-compatible request that named none', async () => {
    const body = await upstreamBody('sim/compatible', {});
    expect(body).not.toHaveProperty('user');
    expect(body).not.toHaveProperty('safety_identifier');
  });

  it('adds no metadata.user_id to an Anthropic request that named no user', async () => {
    expect(await upstreamBody('sim/claude', {})).not.toHaveProperty('metadata');
  });

  it('forwards a named end user as the same keyed hash in each protocol, never raw', async () => {
    const compatible = await upstreamBody('sim/compatible', { user: 'alice@example.com' });
    const claude = await upstreamBody('sim/claude', { user: 'alice@example.com' });
    expect(compatible.user).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(compatible.safety_identifier).toBe(compatible.user);
    expect(claude.metadata).toEqual({ user_id: compatible.user });
    expect(JSON.stringify([compatible, claude])).not.toContain('alice');
  });
});
