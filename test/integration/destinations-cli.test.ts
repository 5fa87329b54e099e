import { InvalidArgumentError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDestinationsCommand, testDestinationCommand } from '../../src/cli/destinations-commands.js';
import type { ReceivedLog } from '../../src/sim/receivers/receivers.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

/** `model-gateway destinations list|test`, run in-process against a gateway's database (as the CLI opens it). */
describe.each(testEngines)('model-gateway destinations on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const context = () => ({ store: gw.store, organizationId: gw.organizationId, redisUrl: undefined, now: new Date() });
  const create = async (body: object) =>
    (await call(gw, 'POST', '/observability/destinations', { key: gw.managementKey, body })).body.data.id as string;

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { destinations: false });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('lists the destinations with their delivery state, secrets masked', async () => {
    const id = await create({
      type: 'posthog',
      name: 'analytics',
      config: { endpoint: `${sim.url}/receivers/posthog`, apiKey: 'phc_secret_0123456789' },
    });
    const listed = JSON.parse(await listDestinationsCommand(context(), { json: true }));
    expect(listed.total_count).toBe(1);
    expect(listed.data[0]).toMatchObject({
      id,
      type: 'posthog',
      name: 'analytics',
      config: { apiKey: 'phc_...6789' },
      delivery: { pending: 0, dead_letters: 0, last_success_at: null },
    });
    const table = await listDestinationsCommand(context(), { json: false });
    expect(table).toContain(id);
    expect(table).not.toContain('phc_secret_0123456789');
  });

  it('sends a test event and reports the receiver’s answer; a refusal is reported, not delivered', async () => {
    const posthog = JSON.parse(await listDestinationsCommand(context(), { json: true })).data[0].id as string;
    const ok = await testDestinationCommand(context(), ['127.0.0.0/8'], posthog, true);
    expect(ok.delivered).toBe(true);
    const outcome = JSON.parse(ok.report).data;
    expect(outcome).toMatchObject({ type: 'posthog', delivered: true, error: null, answers: [{ status: 200, body: '{"status":1}' }] });
    const got = (await (await fetch(`${sim.url}/__sim/receivers`)).json()) as ReceivedLog;
    const sent = got.posthog.map((r) => JSON.parse(r.body).batch[0]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ event: '$ai_generation', properties: { $ai_trace_id: outcome.generation_id, $ai_model: 'test' } });

    const wrongPath = await create({ type: 'webhook', name: 'hook', config: { url: `${sim.url}/receivers/nowhere` } });
    const failed = await testDestinationCommand(context(), ['127.0.0.0/8'], wrongPath, false);
    expect(failed.delivered).toBe(false);
    expect(failed.report).toMatch(/answer\s+404 from http:\/\/127\.0\.0\.1:\d+\/receivers\/nowhere/);
    expect(failed.report).toMatch(/result\s+not delivered: .*answered 404/);

    // Without the private range allowed, the SSRF guard stops it before it leaves.
    const guarded = await testDestinationCommand(context(), [], posthog, false);
    expect(guarded.delivered).toBe(false);
    await expect(testDestinationCommand(context(), [], 'no-such-id', false)).rejects.toThrow(InvalidArgumentError);
  });
});
