import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import type { ServingProcess } from '../support/cli.js';
import { PROCESS_TESTS } from '../support/process-tests.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { until } from '../support/until.js';
import { chat, createKey, load, logLines, MANAGEMENT_KEY, request, serveFromSource, warnings, writeSimConfig } from './shared-services.js';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('Redis going away and coming back', PROCESS_TESTS, () => {
  let sim: Simulator;
  let proxy: TcpProxy;
  let dir: string;
  let serving: ServingProcess;

  beforeAll(async () => {
    sim = await startSimulator();
    const redis = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    dir = mkdtempSync(join(tmpdir(), 'mg-redis-outage-'));
    // Per-key rate limits count in Redis: every request asks it.
    const config = writeSimConfig(dir, sim.url, ['rate_limits: { requests_per_key: 1000000, window_seconds: 60 }']);
    serving = await serveFromSource({
      GATEWAY_CONFIG: config,
      DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
      LEDGER_OUTBOX_DIR: join(dir, 'outbox'),
      REDIS_URL: `redis://${proxy.address}`,
      // Longer than the default 50 ms: on a test machine busy with other suites a live Redis can answer that late, and a
      // spurious outage (logged, then over) would be counted with the one this test makes.
      REDIS_COMMAND_TIMEOUT_MS: '250',
    });
  });
  afterAll(async () => {
    await serving?.stop('SIGKILL');
    await proxy?.close();
    await sim?.close();
  });

  const redisUp = () =>
    until(
      () => request(serving, 'GET', '/ready'),
      ({ body }) => body.checks?.redis === 'up',
    );

  /** A session's first answer comes from beta (alpha fails for sim/flaky), and pins it there: sim/sticky then skips the cheaper alpha. */
  async function sessionSticks(): Promise<string[]> {
    const session_id = `session-${Math.random()}`;
    const first = await chat(serving, MANAGEMENT_KEY, { model: 'sim/flaky', session_id });
    // The pin is written after the answer.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const next = await chat(serving, MANAGEMENT_KEY, { model: 'sim/sticky', session_id });
    return [first.body.provider, next.body.provider];
  }

  it('when it is killed, answers every request without waiting on it, on this instance’s pins and counts, and says so once', async () => {
    expect((await redisUp()).body.checks.redis).toBe('up');
    expect(await sessionSticks()).toEqual(['beta', 'beta']);
    // A key with a limit: its spend is held in Redis, and in this instance's book while Redis is away.
    const { key } = await createKey(serving, 'limited', 1_000);
    const traffic = load(8, () => chat(serving, key));
    await until(
      () => traffic.answers.length,
      (n) => n >= 20,
    );
    const warningsBefore = warnings(serving).length;
    await proxy.cut();
    const atCut = traffic.answers.length;
    await until(
      () => traffic.answers.length,
      (n) => n >= atCut + 100,
    );
    expect(await sessionSticks()).toEqual(['beta', 'beta']);
    expect((await request(serving, 'GET', '/ready')).body.checks.redis).toBe('unavailable');

    await proxy.restore();
    expect((await redisUp()).status).toBe(200);
    const answers = await traffic.stop();
    expect(answers.length).toBeGreaterThanOrEqual(atCut + 100);
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    expect(logLines(serving, 'Redis is unavailable')).toHaveLength(1);
    expect(logLines(serving, 'Redis is back')).toHaveLength(1);
    // Nothing else was logged as a warning or worse about it: not one line per request.
    expect(warnings(serving).slice(warningsBefore)).toEqual(logLines(serving, 'Redis is unavailable'));
    expect(await sessionSticks()).toEqual(['beta', 'beta']);
  });

  it('when the network to it is cut (no error, no answer), requests go on after a bounded wait instead of hanging', async () => {
    await redisUp();
    const traffic = load(8, () => chat(serving, MANAGEMENT_KEY));
    await until(
      () => traffic.answers.length,
      (n) => n >= 20,
    );
    proxy.blackhole();
    const atCut = traffic.answers.length;
    const during = await until(
      () => traffic.answers.length,
      (n) => n >= atCut + 100,
    );
    expect(during).toBeGreaterThanOrEqual(atCut + 100);
    await proxy.restore();
    expect((await redisUp()).body.checks.redis).toBe('up');
    const answers = await traffic.stop();
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
  });
});
