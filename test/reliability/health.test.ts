import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lifecycle } from '../../src/api/health/lifecycle.js';
import { buildApp } from '../../src/app.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { localChangeFeed } from '../../src/store/change-feed.js';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import type { ServingProcess } from '../support/cli.js';
import { request, serveFromSource } from './shared-services.js';

describe('GET /health and GET /ready of `serve`', () => {
  let serving: ServingProcess;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-health-'));
    serving = await serveFromSource({
      DATABASE_URL: `sqlite:${join(dir, 'gateway.sqlite')}`,
      LEDGER_OUTBOX_DIR: join(dir, 'outbox'),
      GATEWAY_CONFIG: '',
    });
  });
  afterAll(() => serving?.stop('SIGKILL'));

  it('answer at the root without a key: alive, and ready with what was checked', async () => {
    expect(await request(serving, 'GET', '/health')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await request(serving, 'GET', '/ready')).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'up', migrations: 'current', ledger_outbox_rows: 0 } },
    });
    expect((await request(serving, 'GET', '/api/v1/ready')).status).toBe(404);
  });
});

describe('GET /ready through the phases of a gateway', () => {
  let store: Store;
  let app: FastifyInstance;
  let base: string;
  const lifecycle = new Lifecycle();

  beforeAll(async () => {
    store = openStore(`sqlite:${join(mkdtempSync(join(tmpdir(), 'mg-ready-')), 'gateway.sqlite')}`);
    await migrateToLatest(store);
    app = await buildApp({
      store,
      changes: localChangeFeed(),
      catalog: buildCatalog({ env: {}, knownKinds: PROVIDER_KINDS }),
      lifecycle,
      internRuntime: false,
    });
    base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/api/v1`;
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  it('is 503 in the envelope while starting and while draining, 200 while serving', async () => {
    const starting = await request({ baseUrl: base }, 'GET', '/ready');
    expect(starting.status).toBe(503);
    expect(starting.body.error).toMatchObject({
      code: 503,
      message: 'Not ready: the gateway is starting',
      metadata: { phase: 'starting' },
    });
    lifecycle.serving();
    expect((await request({ baseUrl: base }, 'GET', '/ready')).status).toBe(200);
    lifecycle.draining();
    const draining = await request({ baseUrl: base }, 'GET', '/ready');
    expect(draining.status).toBe(503);
    expect(draining.body.error).toMatchObject({ message: 'Not ready: the gateway is shutting down', metadata: { phase: 'draining' } });
    // Liveness does not change: the process still serves; nor do the metrics, which a drain is worth watching through.
    expect((await request({ baseUrl: base }, 'GET', '/health')).status).toBe(200);
    expect((await fetch(new URL('/metrics', base))).status).toBe(200);
    // Anything else is refused in the envelope, its connection closed.
    const refused = await request({ baseUrl: base }, 'GET', '/api/v1/models');
    expect(refused.status).toBe(503);
  });
});
