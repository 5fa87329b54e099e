import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway } from '../support/gateway.js';
import { startInternPair, type InternPair } from '../support/intern-pair.js';
import { waitFor } from '../support/interns-runtime.js';

const redisUrl = process.env.TEST_REDIS_URL;
/** Each engine on its own (notices through the database's feed, or the periodic pass on SQLite), and again with a Redis feed. */
const variants = [...testEngines.map((engine) => ({ name: engine.name, engine, redisUrl: undefined })), ...(redisUrl ? testEngines.map((engine) => ({ name: `${engine.name} + Redis`, engine, redisUrl })) : [])];

/**
 * Interns behind a load balancer: two gateway instances on one database,
 * each request sent to whichever the test picks. Whatever instance a call
 * lands on, it sees the intern as the database says it is.
 */
describe.each(variants)('interns across two gateway instances on $name', ({ engine, redisUrl: redis }) => {
  let pair: InternPair;
  afterEach(async () => pair?.close());

  const key = () => pair.a.gateway.managementKey;
  const invoke = (gw: RunningGateway, id: string, body: Record<string, unknown>) => call(gw, 'POST', `/interns/${id}/invoke`, { key: key(), body });
  const session = (gw: RunningGateway, id: string, sessionId: string) => call(gw, 'GET', `/interns/${id}/sessions/${sessionId}`, { key: key() });
  const untilRunsEnded = (gw: RunningGateway, id: string, sessionId: string, count: number) =>
    waitFor(async () => (await session(gw, id, sessionId)).body, (body) => body.data?.runs.length === count && body.data.runs.every((r: { status: string }) => r.status === 'ended'), 'runs to end');

  async function runningIntern(gw: RunningGateway, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await call(gw, 'POST', '/interns', {
      key: key(),
      headers: { 'idempotency-key': randomUUID() },
      body: { name: 'helper', model: 'sim/agent', provision: true, allowed_domains: ['127.0.0.1'], webhook_url: `${pair.webhook.url}/hook`, ...extra },
    });
    expect(created.status).toBe(201);
    await waitFor(async () => (await call(gw, 'GET', `/interns/${created.body.id}`, { key: key() })).body.status, (status) => status === 'running', 'the intern to run');
    return created.body.id as string;
  }

  it('an intern provisioned through one instance runs on the other too; suspended there, its process stops on both; provisioned again, it runs on both', async () => {
    pair = await startInternPair(engine, redis ? { redisUrl: redis } : {});
    const { a, b } = pair;
    const id = await runningIntern(a.gateway);
    await waitFor(async () => b.live(), (live) => live.includes(id), 'a process on the other instance');
    const started = await invoke(b.gateway, id, { input: `Use http_fetch on ${pair.site.url}/quick then notify me` });
    expect([started.status, started.body.status]).toEqual([202, 'started']);
    const view = await untilRunsEnded(a.gateway, id, started.body.session_id, 1);
    expect(view.data.runs[0].end_reason).toBe('finished');

    const suspended = await call(b.gateway, 'POST', `/interns/${id}/suspend`, { key: key() });
    expect(suspended.status).toBe(200);
    await waitFor(async () => [...a.live(), ...b.live()], (live) => !live.includes(id), 'the processes on both instances to stop');
    const refused = await invoke(a.gateway, id, { input: 'hi' });
    expect([refused.status, refused.body.error.metadata.reason]).toEqual([409, 'intern_not_ready']);

    expect((await call(a.gateway, 'POST', `/interns/${id}/provision`, { key: key() })).status).toBe(202);
    await waitFor(async () => [a.live(), b.live()], ([onA, onB]) => onA!.includes(id) && onB!.includes(id), 'processes on both instances again');
    const again = await invoke(b.gateway, id, { input: 'hello' });
    expect([again.status, again.body.status]).toEqual([202, 'started']);
    await untilRunsEnded(b.gateway, id, again.body.session_id, 1);

    // Deleted through one instance: no process is left on either.
    expect((await call(a.gateway, 'DELETE', `/interns/${id}`, { key: key() })).status).toBe(202);
    await waitFor(async () => [...a.live(), ...b.live()], (live) => !live.includes(id), 'the processes of the deleted intern to stop');
  }, 90_000);
});
