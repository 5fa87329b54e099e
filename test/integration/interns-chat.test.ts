import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway } from '../support/gateway.js';
import { enrolInProgramme, type InternWorld, startInternWorld } from '../support/intern-world.js';
import { waitFor } from '../support/interns-runtime.js';
import { readSse } from '../support/read-sse.js';

const reasoning = (chunks: any[]) => chunks.map((c) => c.choices[0]?.delta?.reasoning ?? '').join('');

describe.each(testEngines)('intern chat (SSE) on $name', (engine) => {
  let world: InternWorld;
  let site: InternWorld['site'];
  let webhook: InternWorld['webhook'];
  let gateway: RunningGateway;
  let key: string;
  let held: ServerResponse[];
  const release = () => world.release();

  beforeAll(async () => {
    world = await startInternWorld(engine);
    ({ site, webhook, gateway, held } = world);
    await enrolInProgramme(gateway);
    key = gateway.managementKey;
  }, 30_000);
  afterAll(async () => {
    await world?.close();
  });

  async function runningIntern(extra: Record<string, unknown> = {}) {
    // Each call is a new intern: without a key of its own, the same body within the hour would be the same create.
    const created = await call(gateway, 'POST', '/interns', {
      key,
      headers: { 'idempotency-key': randomUUID() },
      body: {
        name: 'chatty',
        model: 'sim/agent',
        provision: true,
        allowed_domains: ['127.0.0.1'],
        webhook_url: `${webhook.url}/hook`,
        ...extra,
      },
    });
    await waitFor(
      async () => (await call(gateway, 'GET', `/interns/${created.body.id}`, { key })).body.status,
      (s) => s === 'running',
      'running',
    );
    return created.body.id as string;
  }

  const chat = (id: string, body: Record<string, unknown>, signal?: AbortSignal) =>
    fetch(`${gateway.baseUrl}/interns/${id}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, ...body }),
      ...(signal ? { signal } : {}),
    });

  /** A chat whose run is held in http_fetch of /slow until release(): resolves once its stream has said which session it is. */
  async function slowChat(id: string, signal?: AbortSignal) {
    let sessionId: string | undefined;
    const response = await chat(id, { messages: [{ role: 'user', content: `Use http_fetch on ${site.url}/slow then notify me` }] }, signal);
    const streamed = readSse(response, (c) => (sessionId ??= c.session_id));
    // A stream the test abandons must not fail the test when its read is cut.
    streamed.catch(() => undefined);
    await waitFor(
      async () => held.length,
      (n) => n > 0,
      'the page request',
    );
    await waitFor(
      async () => sessionId,
      (s) => s !== undefined,
      'the first chunk',
    );
    return { streamed, sessionId: sessionId! };
  }

  const sessionRun = async (id: string, sessionId: string) =>
    (await call(gateway, 'GET', `/interns/${id}/sessions/${sessionId}`, { key })).body.data.runs[0];

  it('streams a self-drive run as chat.completion.chunk chunks carrying session_id, ending with stop and [DONE]', async () => {
    const id = await runningIntern();
    const response = await chat(id, { messages: [{ role: 'user', content: `Use http_fetch on ${site.url}/quick then notify me` }] });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { chunks, done } = await readSse(response);
    expect(done).toBe(true);
    const sessionId = chunks[0].session_id;
    expect(sessionId).toMatch(/^isess_/);
    for (const c of chunks) expect(c).toMatchObject({ object: 'chat.completion.chunk', session_id: sessionId, model: 'sim/agent' });
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant' });
    expect(reasoning(chunks)).toContain('[http_fetch]');
    expect(reasoning(chunks)).toContain('quick page body');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    // The closing chunk: no choices, the session, and the run's usage from its ledger rows.
    const usage = chunks.at(-1).usage;
    expect(chunks.at(-1).choices).toEqual([]);
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(usage.cost).toBeGreaterThan(0);
    const view = await call(gateway, 'GET', `/interns/${id}/sessions/${sessionId}`, { key });
    expect(view.body.data).toMatchObject({ origin: 'chat', runs: [{ status: 'ended', end_reason: 'finished' }] });
    // A chat session is not an invoke session.
    const invoked = await call(gateway, 'POST', `/interns/${id}/invoke`, { key, body: { input: 'hi', session_id: sessionId } });
    expect(invoked.status).toBe(404);
  }, 60_000);

  it('a message to a session whose run is going answers 202 steered, and the open stream shows the rest of the run', async () => {
    const id = await runningIntern();
    const { streamed, sessionId } = await slowChat(id);
    const steered = await chat(id, { session_id: sessionId, messages: [{ role: 'user', content: 'Also mention the date' }] });
    expect(steered.status).toBe(202);
    expect(await steered.json()).toEqual({ session_id: sessionId, status: 'steered' });
    release();
    const { chunks, done } = await streamed;
    expect(done).toBe(true);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    const view = await call(gateway, 'GET', `/interns/${id}/sessions/${sessionId}`, { key });
    expect(view.body.data.runs[0].transcript.map((s: { kind: string }) => s.kind)).toContain('steer');
  }, 60_000);

  it('manual mode: a tool approval pauses the run and is surfaced as provide_input; the next request answers it; 503 busy past max_open_questions', async () => {
    const id = await runningIntern({ max_open_questions: 1 });
    const task = `Use http_fetch on ${site.url}/quick then notify me`;
    const paused = await readSse(await chat(id, { approval_mode: 'manual', messages: [{ role: 'user', content: task }] }));
    expect(paused.done).toBe(true);
    const last = paused.chunks.at(-2);
    expect(last.choices[0].finish_reason).toBe('tool_calls');
    // The turn is not over: no usage yet.
    expect(paused.chunks.at(-1)).toMatchObject({ choices: [], usage: null });
    const call0 = last.choices[0].delta.tool_calls[0];
    expect(call0).toMatchObject({ type: 'function', function: { name: 'openrouter.provide_input' } });
    expect(JSON.parse(call0.function.arguments)).toEqual({
      kind: 'permission',
      operation: 'notify',
      options: ['allow_once', 'reject_once'],
    });
    const sessionId = paused.chunks.at(-1).session_id;

    const busy = await chat(id, { approval_mode: 'manual', messages: [{ role: 'user', content: task }] });
    expect(busy.status).toBe(503);
    expect(((await busy.json()) as any).error.metadata).toEqual({ reason: 'busy', retryable: true });

    const wrongId = await chat(id, {
      session_id: sessionId,
      messages: [{ role: 'tool', tool_call_id: 'call_other', content: 'allow_once' }],
    });
    expect(wrongId.status).toBe(400);
    expect(((await wrongId.json()) as any).error.metadata).toEqual({ reason: 'interaction_unknown', retryable: false });

    const reports = webhook.received.length;
    const resumed = await readSse(
      await chat(id, {
        session_id: sessionId,
        approval_mode: 'manual',
        messages: [{ role: 'tool', tool_call_id: call0.id, content: 'allow_once' }],
      }),
    );
    expect(resumed.chunks.every((c) => c.session_id === sessionId)).toBe(true);
    expect(reasoning(resumed.chunks)).toContain('[approval granted by user]');
    // Only the steps after the pause: the fetch before it is not streamed again.
    expect(reasoning(resumed.chunks)).not.toContain('[http_fetch]');
    expect(reasoning(resumed.chunks)).toContain('[notify result]');
    expect(resumed.chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(webhook.received.length).toBe(reports + 1);

    // The run is over: a further answer has nothing to answer.
    const late = await chat(id, { session_id: sessionId, messages: [{ role: 'tool', tool_call_id: call0.id, content: 'allow_once' }] });
    expect(late.status).toBe(409);
    expect(((await late.json()) as any).error.metadata).toEqual({ reason: 'interaction_not_pending', retryable: false });
  }, 60_000);

  it('disconnecting while the response streams cancels the run (end_reason cancelled in the session view)', async () => {
    const id = await runningIntern();
    const leave = new AbortController();
    const { streamed, sessionId } = await slowChat(id, leave.signal);
    leave.abort();
    await streamed.catch(() => undefined);
    const run = await waitFor(
      () => sessionRun(id, sessionId),
      (r) => r.status === 'ended',
      'the run to end',
    );
    expect(run).toMatchObject({ end_reason: 'cancelled', error: expect.stringContaining('disconnected') });
    // The page answering later changes nothing: the run stays ended, its end the last step.
    const reports = webhook.received.length;
    release();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await sessionRun(id, sessionId);
    expect(after.transcript.at(-1).kind).toBe('end');
    expect(webhook.received.length).toBe(reports);
  }, 60_000);

  it('closing the connection after the [DONE] that follows tool_calls keeps the paused run', async () => {
    const id = await runningIntern();
    const paused = await readSse(
      await chat(id, { approval_mode: 'manual', messages: [{ role: 'user', content: 'Please ask_question about the city' }] }),
    );
    expect(paused.chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    const sessionId = paused.chunks.at(-1).session_id;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await sessionRun(id, sessionId)).toMatchObject({ status: 'awaiting_input', end_reason: null });
    const callId = paused.chunks.at(-2).choices[0].delta.tool_calls[0].id;
    const resumed = await readSse(
      await chat(id, {
        session_id: sessionId,
        approval_mode: 'manual',
        messages: [{ role: 'tool', tool_call_id: callId, content: 'Oslo' }],
      }),
    );
    expect(resumed.chunks.at(-2).choices[0].finish_reason).toBe('stop');
  }, 60_000);

  it("a stream that can no longer read its run's events (the database failed) ends with stream_severed, 502 and retryable", async () => {
    const id = await runningIntern();
    const { streamed: reading, sessionId } = await slowChat(id);
    // The transcript out of reach: the stream's next read of the run's steps fails.
    await sql`ALTER TABLE intern_run_steps RENAME TO intern_run_steps_away`.execute(gateway.store.db);
    let streamed: Awaited<typeof reading>;
    try {
      streamed = await reading;
    } finally {
      await sql`ALTER TABLE intern_run_steps_away RENAME TO intern_run_steps`.execute(gateway.store.db);
    }
    expect(streamed.done).toBe(true);
    const failed = streamed.chunks.at(-2);
    expect(failed).toMatchObject({ model: 'openrouter/intern', session_id: sessionId, choices: [{ finish_reason: 'error' }] });
    expect(failed.error).toEqual({
      code: 502,
      message: expect.stringContaining('severed'),
      metadata: { reason: 'stream_severed', retryable: true },
    });
    expect(streamed.chunks.at(-1)).toMatchObject({ choices: [], session_id: sessionId, usage: null });
    // The stream only lost sight of the run: it goes on once the page answers.
    release();
    const run = await waitFor(
      () => sessionRun(id, sessionId),
      (r) => r.status === 'ended',
      'the run to end',
    );
    expect(run.end_reason).toBe('finished');
  }, 60_000);

  it('refuses bad bodies with 400 bad_request and foreign sessions with 404', async () => {
    const id = await runningIntern();
    const bad = [
      { messages: [] },
      { messages: [{ role: 'user', content: '' }] },
      { stream: false, messages: [{ role: 'user', content: 'hi' }] },
      { stream: undefined, messages: [{ role: 'user', content: 'hi' }] },
      { messages: [{ role: 'robot', content: 'hi' }] },
      { messages: [{ role: 'system', content: 'be brief' }] },
      { messages: [{ role: 'tool', content: 'allow_once' }], session_id: 'isess_x' },
      { messages: [{ role: 'tool', tool_call_id: 'call_1', content: 'allow_once' }] },
      { approval_mode: 'auto', messages: [{ role: 'user', content: 'hi' }] },
    ];
    for (const body of bad) {
      const res = await chat(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as any).error.metadata).toEqual({ reason: 'bad_request', retryable: false });
    }
    const invoked = await call(gateway, 'POST', `/interns/${id}/invoke`, {
      key,
      body: { input: `Use http_fetch on ${site.url}/quick then notify me` },
    });
    const foreign = await chat(id, { session_id: invoked.body.session_id, messages: [{ role: 'user', content: 'hi' }] });
    expect(foreign.status).toBe(404);
  }, 60_000);
});
