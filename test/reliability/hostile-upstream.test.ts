import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { startTestUpstream, type TestUpstream } from '../../src/providers/shared/upstream-server.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { until } from '../support/until.js';

/**
 * An upstream that answers far more than anyone should: the gateway reads
 * an error body only as far as its error limit and an answer only as far as
 * its answer limit (1 MiB here, through the settings), refuses the rest
 * with 502 naming the limit, closes the upstream's connection instead of
 * reading on, and keeps only an excerpt in the client's error and the ledger.
 */
const sqlite = testEngines.find((e) => e.name === 'sqlite')!;
const MIB = 1024 * 1024;
const ANSWER_LIMIT = MIB;
const ERROR_LIMIT = 8 * 1024;

const completion = (content: string) =>
  JSON.stringify({
    id: 'up-1',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
const firstChunk = `data: ${JSON.stringify({ id: 'up-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'hi' }, finish_reason: null }] })}\n\n`;

/** Bytes each upstream model's answer got written before its connection closed. */
const written = new Map<string, Promise<number>>();

/**
 * Writes `body` in 64 KiB pieces, a millisecond apart, and stops when the
 * connection closes: what got written then shows whether the gateway read
 * on or let go (a single write would vanish into the loopback's buffers).
 */
function dribble(res: ServerResponse, model: string, body: string | Buffer, end = true): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  let sent = 0;
  written.set(model, new Promise((resolve) => res.once('close', () => resolve(sent))));
  const next = () => {
    if (res.destroyed) return;
    if (sent >= bytes.length) return void (end && res.end());
    const piece = bytes.subarray(sent, sent + 64 * 1024);
    sent += piece.length;
    res.write(piece, () => setTimeout(next, 1));
  };
  next();
}

/** What each upstream model answers; a scenario that never ends its answer holds the connection until the gateway lets go. */
const SCENARIOS: Record<string, (res: ServerResponse, model: string) => void> = {
  // 30 MB of error, declared up front.
  'error-30mb': (res, model) => {
    res.writeHead(500, { 'content-type': 'application/json', 'content-length': 30 * MIB });
    dribble(res, model, Buffer.alloc(30 * MIB, 'e'));
  },
  // 30 MB of error, chunked: its size is known only by reading it.
  'error-30mb-chunked': (res, model) => {
    res.writeHead(400, { 'content-type': 'text/plain' });
    dribble(res, model, Buffer.alloc(30 * MIB, 'e'));
  },
  // A well-formed completion three times the answer limit, chunked.
  'answer-3mib': (res, model) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    dribble(res, model, completion('a'.repeat(3 * MIB)));
  },
  // Says 100 MB and sends the first 64 KiB only: refused on its Content-Length, not waited for.
  'answer-100mb-declared': (res, model) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 * MIB });
    dribble(res, model, Buffer.alloc(64 * 1024, ' '), false);
  },
  // One stream event that never ends.
  'endless-event': (res, model) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    dribble(res, model, `data: "${'x'.repeat(2 * MIB)}`, false);
  },
  // A good first chunk, then an error event under the answer limit, carrying 512 KiB of message.
  'huge-error-event': (res, model) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    dribble(res, model, `${firstChunk}data: ${JSON.stringify({ error: { message: 'm'.repeat(512 * 1024), code: 500 } })}\n\n`);
  },
};

describe('hostile upstreams', () => {
  let upstream: TestUpstream;
  let gw: RunningGateway;

  beforeAll(async () => {
    upstream = await startTestUpstream((received, res) => {
      const model = String((received.body as { model?: unknown }).model);
      SCENARIOS[model]!(res, model);
    });
    const lines = [
      'providers:',
      `  - { id: hostile, kind: openai, base_url: "${upstream.origin}/v1", api_key: k, timeout_ms: 5000 }`,
      `  - { id: hostile-rerank, kind: cohere, base_url: "${upstream.origin}/v2", api_key: k, timeout_ms: 5000 }`,
      'models:',
      ...Object.keys(SCENARIOS).map(
        (scenario) =>
          `  - { id: "hostile/${scenario}", endpoints: [{ provider: hostile, upstream_model: "${scenario}", pricing: { prompt: 0, completion: 0 } }] }`,
      ),
      '  - { id: hostile/rerank, type: rerank, endpoints: [{ provider: hostile-rerank, upstream_model: error-30mb, pricing: { request: 0 } }] }',
    ];
    const catalog = buildCatalog({
      config: parseGatewayConfig(lines.join('\n'), 'hostile.yaml', { knownKinds: PROVIDER_KINDS }, {}),
      env: {},
      knownKinds: PROVIDER_KINDS,
    });
    gw = await startGateway(sqlite, {
      catalog,
      upstreamLimits: { maxAnswerBytes: ANSWER_LIMIT, maxErrorBytes: ERROR_LIMIT },
      chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } },
    });
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
  });

  const chat = (scenario: string, stream = false) =>
    call(gw, 'POST', '/chat/completions', {
      key: gw.managementKey,
      body: { model: `hostile/${scenario}`, stream, messages: [{ role: 'user', content: 'hi' }] },
    });

  /** The ledger row of the model's last generation, once written. */
  async function ledgerRow(model: string) {
    const read = () =>
      gw.store.db.selectFrom('generations').select(['error_message', 'routing']).where('model', '=', model).executeTakeFirst();
    const row = await until(read, (found) => found !== undefined);
    return { errorMessage: row?.error_message ?? '', routing: row?.routing ?? '' };
  }

  it.each(['error-30mb', 'error-30mb-chunked'])('%s: keeps an excerpt of a 30 MB error body and stops reading it', async (scenario) => {
    const res = await chat(scenario);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.error.message).toContain(
      `an error body larger than the gateway's ${ERROR_LIMIT}-byte limit (UPSTREAM_MAX_ERROR_BYTES)`,
    );
    expect(JSON.stringify(res.body).length).toBeLessThan(4 * ERROR_LIMIT);
    expect(await written.get(scenario)).toBeLessThan(10 * MIB);
    const row = await ledgerRow(`hostile/${scenario}`);
    expect(row.errorMessage.length + row.routing.length).toBeLessThan(4 * ERROR_LIMIT);
  });

  it('refuses an answer over the answer limit with 502 naming the limit, and stops reading it', async () => {
    const res = await chat('answer-3mib');
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe(
      `Provider hostile failed: upstream answered more than the gateway's ${ANSWER_LIMIT}-byte limit of an answer (UPSTREAM_MAX_ANSWER_BYTES)`,
    );
    expect(JSON.stringify(res.body).length).toBeLessThan(4 * ERROR_LIMIT);
    expect(await written.get('answer-3mib')).toBeLessThan(3 * MIB);
  });

  it('refuses an answer that declares more than the limit without waiting for it', async () => {
    const res = await chat('answer-100mb-declared');
    expect(res.status).toBe(502);
    expect(res.body.error.message).toContain(`the gateway's ${ANSWER_LIMIT}-byte limit of an answer`);
    await written.get('answer-100mb-declared');
  });

  it('refuses a stream event larger than the limit instead of buffering it', async () => {
    const res = await chat('endless-event', true);
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe(
      `Provider hostile failed: upstream sent a stream event larger than the gateway's ${ANSWER_LIMIT}-character limit (UPSTREAM_MAX_ANSWER_BYTES)`,
    );
  });

  it('keeps an excerpt of an error event’s 512 KiB message in the stream and the ledger', async () => {
    const res = await chat('huge-error-event', true);
    expect(res.status).toBe(200);
    expect(typeof res.body).toBe('string');
    expect(res.body).toContain('"finish_reason":"error"');
    expect((res.body as string).length).toBeLessThan(8 * ERROR_LIMIT);
    const row = await ledgerRow('hostile/huge-error-event');
    expect(row.errorMessage.length + row.routing.length).toBeLessThan(8 * ERROR_LIMIT);
  });

  it('keeps an excerpt of a rerank provider’s 30 MB error body', async () => {
    const res = await call(gw, 'POST', '/rerank', {
      key: gw.managementKey,
      body: { model: 'hostile/rerank', query: 'q', documents: ['a', 'b'] },
    });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.body.error.message).toContain(`${ERROR_LIMIT}-byte limit (UPSTREAM_MAX_ERROR_BYTES)`);
    expect(JSON.stringify(res.body).length).toBeLessThan(4 * ERROR_LIMIT);
  });
});
