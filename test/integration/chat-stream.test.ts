import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

interface StreamRead {
  status: number;
  contentType: string | null;
  events: { data: string; at: number }[];
  comments: string[];
  /** Everything received, in order, with comments marked. */
  order: string[];
  endedAt: number;
  body?: any;
  /** The X-Error-Code of an answer that is not a stream. */
  errorCode?: string | null;
}

describe.each(testEngines)('streaming chat completions on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta'],
      [
        { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=4' }] },
        { id: 'sim/paced', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=3,chunk_delay=400' }] },
        { id: 'sim/long', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=40,chunk_delay=100' }] },
        {
          id: 'sim/breaks',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@chunks=6,fail_after=3' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        { id: 'sim/error-event', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=6,fail_after=2,fail_mode=error-event' }] },
        {
          id: 'sim/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        { id: 'sim/down', endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=500' }] },
        { id: 'sim/slow-start', endpoints: [{ provider: 'alpha', upstream: 'sim-model@latency=500' }] },
        { id: 'sim/slow-fail', endpoints: [{ provider: 'alpha', upstream: 'sim-model@latency=500,status=503' }] },
      ],
    );
    gw = await startGateway(engine, { catalog, chat: { keepAliveAfterMs: 100 } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  async function stream(
    body: Record<string, unknown>,
    options: { headers?: Record<string, string>; abortAfterEvents?: number } = {},
  ): Promise<StreamRead> {
    const controller = new AbortController();
    const response = await fetch(`${gw.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'tell me a story' }], stream: true, ...body }),
      signal: controller.signal,
    });
    const read: StreamRead = {
      status: response.status,
      contentType: response.headers.get('content-type'),
      events: [],
      comments: [],
      order: [],
      endedAt: 0,
    };
    if (!read.contentType?.startsWith('text/event-stream')) {
      read.body = await response.json();
      read.errorCode = response.headers.get('x-error-code');
      return read;
    }
    const parser = createParser({
      onEvent: (e) => {
        read.events.push({ data: e.data, at: performance.now() });
        read.order.push('data');
      },
      onComment: (c) => {
        read.comments.push(c);
        read.order.push('comment');
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const bytes of response.body!) {
        parser.feed(decoder.decode(bytes as Uint8Array, { stream: true }));
        if (options.abortAfterEvents !== undefined && read.events.length >= options.abortAfterEvents) {
          controller.abort();
          break;
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    read.endedAt = performance.now();
    return read;
  }

  const chunks = (read: StreamRead) => read.events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data));
  const generation = (id: string) => gw.store.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirst();

  it('relays chunks in the spec 2.4 shape, ending with usage and cost, then [DONE]', async () => {
    const read = await stream({ model: 'sim/fast' });
    expect(read.status).toBe(200);
    expect(read.contentType).toMatch(/^text\/event-stream/);
    expect(read.events.at(-1)?.data).toBe('[DONE]');
    const all = chunks(read);
    const id = all[0].id;
    expect(id).toMatch(/^gen-/);
    for (const chunk of all) {
      expect(chunk).toMatchObject({
        id,
        object: 'chat.completion.chunk',
        created: expect.any(Number),
        model: 'sim/fast',
        provider: 'alpha',
      });
      expect(chunk).not.toHaveProperty('system_fingerprint', null);
    }
    expect(all.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toContain('tell me a story');
    expect(all.some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(true);
    const last = all.at(-1);
    expect(last.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
      cost: expect.any(Number),
    });
    const row = await generation(id);
    expect(row).toMatchObject({
      status: 'success',
      streamed: 1,
      cancelled: 0,
      finish_reason: 'stop',
      tokens_completion: last.usage.completion_tokens,
    });
    expect(row?.ttft_ms).not.toBeNull();
  });

  it('forwards each chunk as it arrives instead of buffering the stream', async () => {
    const read = await stream({ model: 'sim/paced' });
    const firstContent = read.events.find((e) => e.data !== '[DONE]' && JSON.parse(e.data).choices[0]?.delta?.content);
    // The simulator spaces chunks 400 ms apart: a buffered relay would deliver everything at the end.
    expect(read.endedAt - firstContent!.at).toBeGreaterThan(600);
  });

  it('falls back before the first byte', async () => {
    const all = chunks(await stream({ model: 'sim/flaky' }));
    expect(all[0].provider).toBe('beta');
  });

  it('answers with an error status when every attempt fails before the stream starts', async () => {
    const read = await stream({ model: 'sim/down' });
    expect(read.status).toBe(502);
    expect(read.body.error).toMatchObject({ code: 502, metadata: { provider_name: 'alpha' } });
    expect(read.errorCode).toBe('GW_ERR_UPSTREAM_FAILED');
  });

  it('ends a stream that breaks after the first byte with an error chunk and [DONE], and bills what was sent', async () => {
    const read = await stream({ model: 'sim/breaks' });
    expect(read.status).toBe(200);
    expect(read.events.at(-1)?.data).toBe('[DONE]');
    const all = chunks(read);
    const last = all.at(-1);
    expect(last.error).toMatchObject({ code: 502, message: expect.stringContaining('mid-stream') });
    expect(last.choices[0].finish_reason).toBe('error');
    expect(all.every((c) => c.provider === 'alpha')).toBe(true); // nothing is retried after the first byte
    const row = await generation(last.id);
    expect(row).toMatchObject({
      status: 'error',
      streamed: 1,
      finish_reason: 'error',
      error_code: 502,
      error_name: 'GW_ERR_UPSTREAM_FAILED',
    });
    expect(row!.tokens_prompt).toBeGreaterThan(0);
    expect(row!.total_cost).toBeGreaterThan(0);
    const record = await call(gw, 'GET', `/generation?id=${last.id}`, { key: gw.managementKey });
    expect(record.body.data.error).toEqual({ code: 502, name: 'GW_ERR_UPSTREAM_FAILED', message: row!.error_message });
  });

  it('turns an in-stream provider error event into the error chunk', async () => {
    const last = chunks(await stream({ model: 'sim/error-event' })).at(-1);
    expect(last.error.code).toBe(502);
    expect(last.choices[0].finish_reason).toBe('error');
  });

  it('sends keep-alive comments while waiting for the first upstream byte', async () => {
    const read = await stream({ model: 'sim/slow-start' });
    expect(read.comments.length).toBeGreaterThan(0);
    expect(read.order[0]).toBe('comment');
    expect(read.events.at(-1)?.data).toBe('[DONE]');
  });

  it('reports a failure after keep-alive comments inside the stream', async () => {
    const read = await stream({ model: 'sim/slow-fail' });
    expect(read.status).toBe(200);
    const last = chunks(read).at(-1);
    expect(last.error.code).toBe(503);
    expect(read.events.at(-1)?.data).toBe('[DONE]');
  });

  it('aborts the upstream when the client disconnects and records the generation as cancelled', async () => {
    const read = await stream({ model: 'sim/long' }, { abortAfterEvents: 3 });
    const id = chunks(read)[0].id;
    // The whole upstream stream lasts 4 s; a cancelled run is recorded as soon as the abort reaches it.
    let row: Awaited<ReturnType<typeof generation>>;
    for (let i = 0; i < 100 && !row; i++) {
      row = await generation(id);
      if (!row) await new Promise((r) => setTimeout(r, 20));
    }
    expect(row).toMatchObject({ status: 'cancelled', cancelled: 1, streamed: 1 });
    expect(row!.tokens_completion).toBeGreaterThan(0);
  });

  it('sends the transformed upstream body first when debug.echo_upstream_body is set, without credentials', async () => {
    const read = await stream({ model: 'sim/fast', debug: { echo_upstream_body: true }, user: 'carol' });
    const [debugChunk, ...rest] = chunks(read);
    expect(debugChunk.debug.echo_upstream_body).toMatchObject({
      model: 'sim-model@chunks=4',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(JSON.stringify(debugChunk)).not.toContain('sim-key');
    expect(JSON.stringify(debugChunk)).not.toContain('carol');
    expect(rest.length).toBeGreaterThan(1);
  });

  it('adds service_metadata to the final chunk when asked', async () => {
    const last = chunks(await stream({ model: 'sim/flaky' }, { headers: { 'x-service-metadata': 'enabled' } })).at(-1);
    expect(last.service_metadata).toMatchObject({ strategy: 'fallback', endpoints: { total: 2, available: expect.any(Array) } });
  });
});
