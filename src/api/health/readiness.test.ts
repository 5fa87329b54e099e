import { describe, expect, it } from 'vitest';
import { Lifecycle } from './lifecycle.js';
import { readinessCheck } from './readiness.js';

function serving(): Lifecycle {
  const lifecycle = new Lifecycle();
  lifecycle.serving();
  return lifecycle;
}

describe('readinessCheck', () => {
  it('is not ready while starting or draining, whatever the database says, and reads the phase live', async () => {
    const lifecycle = new Lifecycle();
    const check = readinessCheck({ pendingMigrations: async () => [], lifecycle });
    expect(await check()).toMatchObject({ ready: false, phase: 'starting', reason: 'the gateway is starting' });
    lifecycle.serving();
    expect(await check()).toMatchObject({ ready: true, phase: 'serving', checks: { database: 'up', migrations: 'current' } });
    lifecycle.draining();
    expect(await check()).toMatchObject({ ready: false, phase: 'draining', reason: 'the gateway is shutting down' });
  });

  it('reads the database once per cache period, concurrent probes included', async () => {
    let reads = 0;
    const check = readinessCheck({ pendingMigrations: async () => (reads++, []), lifecycle: serving(), cacheMs: 60_000 });
    await Promise.all(Array.from({ length: 10 }, () => check()));
    await check();
    expect(reads).toBe(1);
  });

  it('is not ready when the database fails or does not answer in time, nor when it misses migrations', async () => {
    const failing = readinessCheck({ pendingMigrations: () => Promise.reject(new Error('connect ECONNREFUSED')), lifecycle: serving() });
    expect(await failing()).toMatchObject({
      ready: false,
      reason: 'the database is unreachable',
      checks: { database: 'unreachable', migrations: 'unknown' },
    });
    const silent = readinessCheck({ pendingMigrations: () => new Promise(() => undefined), lifecycle: serving(), timeoutMs: 10 });
    expect(await silent()).toMatchObject({ ready: false, checks: { database: 'unreachable' } });
    const behind = readinessCheck({ pendingMigrations: async () => ['0099-next'], lifecycle: serving() });
    expect(await behind()).toMatchObject({
      ready: false,
      reason: expect.stringContaining('0099-next'),
      checks: { database: 'up', migrations: 'pending' },
    });
  });

  it('reports Redis and the ledger outbox without requiring them: the gateway serves through both', async () => {
    const check = readinessCheck({
      pendingMigrations: async () => [],
      lifecycle: serving(),
      redis: { available: false },
      outbox: { rows: 3 },
    });
    expect(await check()).toMatchObject({ ready: true, checks: { redis: 'unavailable', ledger_outbox_rows: 3 } });
  });
});
