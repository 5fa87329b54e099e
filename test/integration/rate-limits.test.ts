import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/accounts/api-key-material.js';
import { RATE_LIMIT_PREFIX } from '../../src/accounts/key-rate-limiter.js';
import { startServe } from '../support/cli.js';
import { testEngines } from '../support/databases.js';
import { call, startGateway } from '../support/gateway.js';

const postgres = testEngines.find((e) => e.name === 'postgres');
const redisUrl = process.env.TEST_REDIS_URL;

describe('per-key rate limits (gateway.yaml rate_limits)', () => {
  it('refuses a key past its limit with 429, Retry-After and the limit in the message; other keys go on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-rate-'));
    const config = join(dir, 'gateway.yaml');
    writeFileSync(config, 'rate_limits:\n  requests_per_key: 3\n  window_seconds: 60\n');
    const managementKey = 'rate-limit-test-management-key-000000';
    const serving = await startServe({
      GATEWAY_CONFIG: config,
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: managementKey,
    });
    try {
      const gateway = { baseUrl: serving.baseUrl };
      const created = await call(gateway, 'POST', '/keys', { key: managementKey, body: { name: 'other' } });
      expect(created.status).toBe(201);
      expect((await call(gateway, 'GET', '/key', { key: managementKey })).status).toBe(200);
      expect((await call(gateway, 'GET', '/key', { key: managementKey })).status).toBe(200);

      const refused = await call(gateway, 'GET', '/key', { key: managementKey });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: 429, message: expect.stringContaining('3 requests per 60 seconds') });
      expect(refused.body.error.metadata.retry_after_seconds).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBe(refused.body.error.metadata.retry_after_seconds);

      expect((await call(gateway, 'GET', '/key', { key: created.body.key })).status).toBe(200);
      // An unauthenticated request is refused for that, not counted.
      expect((await call(gateway, 'GET', '/key', { key: 'not-a-key' })).status).toBe(401);
    } finally {
      await serving.stop('SIGTERM');
    }
  });

  it.skipIf(!postgres || !redisUrl)('counts one limit across instances that share Redis', async () => {
    const rateLimits = { requests_per_key: 2, window_seconds: 60 };
    const a = await startGateway(postgres!, { redisUrl, rateLimits });
    const b = await startGateway(postgres!, { redisUrl, rateLimits, databaseUrl: a.store.url });
    // The shared management key is counted in Redis too: a run a moment ago must not spend this one's allowance.
    const redis = new Redis(redisUrl!);
    await redis.del(`${RATE_LIMIT_PREFIX}:${hashApiKey(a.managementKey)}`);
    redis.disconnect();
    try {
      const key = (await call(a, 'POST', '/keys', { key: a.managementKey, body: { name: 'shared' } })).body.key;
      expect((await call(a, 'GET', '/key', { key })).status).toBe(200);
      expect((await call(b, 'GET', '/key', { key })).status).toBe(200);
      expect((await call(a, 'GET', '/key', { key })).status).toBe(429);
      expect((await call(b, 'GET', '/key', { key })).status).toBe(429);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
