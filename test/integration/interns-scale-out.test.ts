import { randomUUID } from 'node:crypto';
import { ConstantBackoff } from 'cockatiel';
import { afterEach, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway } from '../support/gateway.js';
import { type InternPair, startInternPair } from '../support/intern-pair.js';
import { waitFor } from '../support/interns-runtime.js';
import { readSse } from '../support/read-sse.js';

const redisUrl = process.env.TEST_REDIS_URL;
/** Each engine on its own (notices through the database's feed, or the periodic pass on SQLite), and again with a Redis feed. */
const variants = [
  ...testEngines.map((engine) => ({ name: engine.name, engine, redisUrl: undefined })),
  ...(redisUrl ? testEngines.map((engine) => ({ name: `${engine.name} + Redis`, engine, redisUrl })) : []),
];

/**
 * Interns behind a load balancer: two gateway instances on one database,
 * each request sent to whichever the test picks. Whatever instance a call
 * lands on, it sees the intern as the database says it is.
 */
describe.each(variants)('interns across two gateway instances on $name', ({ engine, redisUrl: redis }) => {
  let pair: InternPair;
  afterEach(async () => pair?.close());

  const key = () => pair.a.gateway.managementKey;
  const invoke = (gw: RunningGateway, id: string, body: Record<string, unknown>) =>
    call(gw, 'POST', `/interns/${id}/invoke`, { key: key(), body });
  const session = (gw: RunningGateway, id: string, sessionId: string) =>
    call(gw, 'GET', `/interns/${id}/sessions/${sessionId}`, { key: key() });
  const untilRunsEnded = (gw: RunningGateway, id: string, sessionId: string, count: number) =>
    waitFor(
      async () => (await session(gw, id, sessionId)).body,
      (body) => body.data?.runs.length === count && body.data.runs.every((r: { status: string }) => r.status === 'ended'),
      'runs to end',
    );

  const chat = (gw: RunningGateway, id: string, body: Record<string, unknown>) =>
    fetch(`${gw.baseUrl}/interns/${id}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, ...body }),
    });
  const slowTask = () => `Use http_fetch on ${pair.site.url}/slow then notify me`;

  async function runningIntern(gw: RunningGateway, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await call(gw, 'POST', '/interns', {
      key: key(),
      headers: { 'idempotency-key': randomUUID() },
      body: {
        name: 'helper',
        model: 'sim/agent',
        provision: true,
        allowed_domains: ['127.0.0.1'],
        webhook_url: `${pair.webhook.url}/hook`,
        ...extra,
      },
    });
    expect(created.status).toBe(201);
    await waitFor(
      async () => (await call(gw, 'GET', `/interns/${created.body.id}`, { key: key() })).body.status,
      (status) => status === 'running',
      'the intern to run',
    );
    return created.body.id as string;
  }

  it('an intern provisioned through one instance runs on the other too; suspended there, its process stops on both; provisioned again, it runs on both', async () => {
    pair = await startInternPair(engine, redis ? { redisUrl: redis } : {});
    const { a, b } = pair;
    const id = await runningIntern(a.gateway);
    await waitFor(
      async () => b.live(),
      (live) => live.includes(id),
      'a process on the other instance',
    );
    const started = await invoke(b.gateway, id, { input: `Use http_fetch on ${pair.site.url}/quick then notify me` });
    expect([started.status, started.body.status]).toEqual([202, 'started']);
    const view = await untilRunsEnded(a.gateway, id, started.body.session_id, 1);
    expect(view.data.runs[0].end_reason).toBe('finished');

    const suspended = await call(b.gateway, 'POST', `/interns/${id}/suspend`, { key: key() });
    expect(suspended.status).toBe(200);
    await waitFor(
      async () => [...a.live(), ...b.live()],
      (live) => !live.includes(id),
      'the processes on both instances to stop',
    );
    const refused = await invoke(a.gateway, id, { input: 'hi' });
    expect([refused.status, refused.body.error.metadata.reason]).toEqual([409, 'intern_not_ready']);

    expect((await call(a.gateway, 'POST', `/interns/${id}/provision`, { key: key() })).status).toBe(202);
    await waitFor(
      async () => [a.live(), b.live()],
      ([onA, onB]) => onA!.includes(id) && onB!.includes(id),
      'processes on both instances again',
    );
    const again = await invoke(b.gateway, id, { input: 'hello' });
    expect([again.status, again.body.status]).toEqual([202, 'started']);
    await untilRunsEnded(b.gateway, id, again.body.session_id, 1);

    // Deleted through one instance: no process is left on either.
    expect((await call(a.gateway, 'DELETE', `/interns/${id}`, { key: key() })).status).toBe(202);
    await waitFor(
      async () => [...a.live(), ...b.live()],
      (live) => !live.includes(id),
      'the processes of the deleted intern to stop',
    );
  }, 90_000);

  it('steers, through one instance, a run the other drives: 202 steered, and the driver delivers it before its next model turn', async () => {
    pair = await startInternPair(engine, redis ? { redisUrl: redis } : {});
    const { a, b } = pair;
    const id = await runningIntern(a.gateway);
    const started = await invoke(a.gateway, id, { input: slowTask() });
    await waitFor(
      async () => pair.held.length,
      (n) => n > 0,
      'the page request',
    );
    const steered = await invoke(b.gateway, id, { input: 'Also mention the date', session_id: started.body.session_id });
    expect([steered.status, steered.body]).toEqual([202, { session_id: started.body.session_id, status: 'steered' }]);
    pair.release();
    const view = await untilRunsEnded(b.gateway, id, started.body.session_id, 1);
    const kinds = view.data.runs[0].transcript.map((s: { kind: string }) => s.kind);
    expect(kinds.slice(0, 5)).toEqual(['input', 'assistant', 'tool_call', 'tool_result', 'steer']);
    expect(view.data.runs[0].transcript[4].content).toEqual({ text: 'Also mention the date' });
    expect(await a.gateway.store.db.selectFrom('intern_run_inputs').selectAll().execute()).toEqual([]);
  }, 90_000);

  it('answers, through one instance, the question of a manual run paused on the other, and streams its continuation to the end', async () => {
    pair = await startInternPair(engine, redis ? { redisUrl: redis } : {});
    const { a, b } = pair;
    const id = await runningIntern(a.gateway);
    const paused = await readSse(
      await chat(a.gateway, id, { approval_mode: 'manual', messages: [{ role: 'user', content: 'Please ask_question about the city' }] }),
    );
    expect(paused.chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    const sessionId = paused.chunks.at(-1).session_id;
    const callId = paused.chunks.at(-2).choices[0].delta.tool_calls[0].id;
    const resumed = await chat(b.gateway, id, {
      session_id: sessionId,
      approval_mode: 'manual',
      messages: [{ role: 'tool', tool_call_id: callId, content: 'Oslo' }],
    });
    expect(resumed.status).toBe(200);
    const { chunks, done } = await readSse(resumed);
    expect(done).toBe(true);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    const view = await untilRunsEnded(b.gateway, id, sessionId, 1);
    expect(view.data.runs[0].end_reason).toBe('finished');
    expect(view.data.runs[0].transcript.find((s: { kind: string }) => s.kind === 'answer').content).toMatchObject({
      answer: 'Oslo',
      by: 'user',
    });
  }, 90_000);

  it('answers 504 timeout when the instance driving the run does not take the input in time (its intern process is down), and leaves nothing behind', async () => {
    // A's crashed process waits a minute before its restart; A still holds the run's lease meanwhile.
    pair = await startInternPair(engine, {
      ...(redis ? { redisUrl: redis } : {}),
      tuning: { ackTimeoutMs: 1_000 },
      tuningOfA: { backoff: new ConstantBackoff(60_000) },
    });
    const { a, b } = pair;
    const id = await runningIntern(a.gateway);
    const started = await invoke(a.gateway, id, { input: slowTask() });
    await waitFor(
      async () => pair.held.length,
      (n) => n > 0,
      'the page request',
    );
    await waitFor(
      async () => b.live(),
      (live) => live.includes(id),
      'a process on the other instance',
    );
    a.children
      .filter((c) => c.internId === id && !c.exited)
      .forEach((c) => {
        c.child.kill('SIGKILL');
      });
    await waitFor(
      async () => a.live(),
      (live) => !live.includes(id),
      'the process on the driving instance to die',
    );
    const refused = await invoke(b.gateway, id, { input: 'Also mention the date', session_id: started.body.session_id });
    expect([refused.status, refused.body.error.metadata]).toEqual([504, { reason: 'timeout', retryable: true }]);
    expect(await a.gateway.store.db.selectFrom('intern_run_inputs').selectAll().execute()).toEqual([]);
    const run = await a.gateway.store.db
      .selectFrom('intern_run_steps')
      .select('kind')
      .innerJoin('intern_runs', 'intern_runs.id', 'intern_run_steps.run_id')
      .where('intern_runs.session_id', '=', started.body.session_id)
      .execute();
    expect(run.map((s) => s.kind)).not.toContain('steer');
  }, 90_000);
});
