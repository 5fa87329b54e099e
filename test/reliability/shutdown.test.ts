import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { openStore } from '../../src/store/database.js';
import { startServe } from '../support/cli.js';
import { testEngines } from '../support/databases.js';
import { startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';
import { openSocket, portOf, untilClosed } from './raw-http.js';

const KEY = 'shutdown-test-management-key-0000';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

/**
 * `serve` with a one-second drain, in front of a chat model that streams for twenty seconds and a speech
 * model billed by tokens whose audio comes a piece every 100 ms.
 */
async function serveSlowStreams(dir: string) {
  const config = join(dir, 'gateway.yaml');
  writeFileSync(
    config,
    [
      'providers:',
      `  - { id: sim, kind: openai, base_url: "${sim.url}/v1", api_key: k }`,
      'models:',
      '  - id: sim/long-stream',
      '    endpoints:',
      '      - { provider: sim, upstream_model: "sim-model@chunks=200,chunk_delay=100", pricing: { prompt: 0.000001, completion: 0.000002 } }',
      '  - id: sim/long-speech',
      '    type: speech',
      '    endpoints:',
      '      - { provider: sim, upstream_model: "gpt-4o-mini-tts@chunk_delay=100", pricing: { prompt: 0.0000006, completion: 0.000012 } }',
    ].join('\n'),
  );
  return startServe({
    GATEWAY_CONFIG: config,
    DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
    GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: KEY,
    DRAIN_TIMEOUT_MS: '1000',
  });
}

describe('a stop past its drain time', () => {
  it('ends the streams still open with the error chunk and [DONE], and records each, billed for what it delivered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-shutdown-'));
    const serving = await serveSlowStreams(dir);
    const streams = await Promise.all(
      [1, 2].map(() =>
        fetch(`${serving.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'sim/long-stream', stream: true, messages: [{ role: 'user', content: 'Tell me a long story' }] }),
        }),
      ),
    );
    const bodies = streams.map((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stoppedAt = Date.now();
    expect(await serving.stop('SIGTERM')).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);

    for (const text of await Promise.all(bodies)) {
      const events = text
        .split('\n\n')
        .filter((event) => event.startsWith('data: '))
        .map((event) => event.slice('data: '.length));
      expect(events.at(-1)).toBe('[DONE]');
      const last = JSON.parse(events.at(-2)!) as { error: { code: number; message: string }; choices: { finish_reason: string }[] };
      expect(last.error.code).toBe(503);
      expect(last.choices[0]?.finish_reason).toBe('error');
      expect(events.length).toBeGreaterThan(3);
    }

    const store = openStore(`sqlite:${join(dir, 'db.sqlite')}`);
    try {
      const rows = await store.db.selectFrom('generations').selectAll().execute();
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.status).toBe('error');
        expect(row.streamed).toBeTruthy();
        expect(Number(row.tokens_completion)).toBeGreaterThan(0);
        expect(Number(row.total_cost)).toBeGreaterThan(0);
      }
    } finally {
      await store.close();
    }
  });
});

describe('a stop during raw speech billed by tokens', () => {
  it('cuts the audio short and records the run, billed the text it accepted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-shutdown-'));
    const serving = await serveSlowStreams(dir);
    const response = await fetch(`${serving.baseUrl}/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim/long-speech', voice: 'alloy', input: 'A long tale, told slowly. '.repeat(40) }),
    });
    expect(response.status).toBe(200);
    const body = response.arrayBuffer().then(
      () => 'whole',
      () => 'cut',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await serving.stop('SIGTERM')).toBe(0);
    // Raw audio cannot carry an error: its answer ends without its last chunk.
    expect(await body).toBe('cut');

    const store = openStore(`sqlite:${join(dir, 'db.sqlite')}`);
    try {
      const rows = await store.db.selectFrom('generations').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ api_type: 'tts', status: 'error', error_code: 503, tokens_completion: 0 });
      expect(Number(rows[0]!.tokens_prompt)).toBeGreaterThan(0);
      expect(Number(rows[0]!.total_cost)).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});

describe('a request that reaches a draining server', () => {
  it('is refused in the envelope with its connection closed', async () => {
    const gw = await startGateway(testEngines[0]!, {
      catalog: simCatalog(
        sim.url,
        ['alpha'],
        [{ id: 'sim/long', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=100,chunk_delay=50' }] }],
      ),
    });
    const streaming = new AbortController();
    const stream = await fetch(`${gw.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim/long', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      signal: streaming.signal,
    });
    expect(stream.status).toBe(200);
    // A request whose headers are half sent when the stop begins is routed once they are complete, while draining.
    const socket = await openSocket(portOf(gw.baseUrl));
    socket.write('GET /api/v1/models HTTP/1.1\r\nHost: gateway\r\n');
    const answered = untilClosed(socket);
    const closing = gw.app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write(`Authorization: Bearer ${gw.managementKey}\r\n\r\n`);
    const refused = await answered;
    expect(refused.status).toBe(503);
    expect(refused.text.toLowerCase()).toContain('connection: close');
    expect(refused.body).toEqual({ error: { code: 503, message: 'Server is shutting down' } });
    streaming.abort();
    await closing;
    await gw.close();
  });
});
