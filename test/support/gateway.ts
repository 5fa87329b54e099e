import type { FastifyInstance } from 'fastify';
import { bootstrap } from '../../src/accounts/bootstrap.js';
import { keyRateLimiter, type RateLimitSettings } from '../../src/accounts/key-rate-limiter.js';
import { type AppOptions, buildApp } from '../../src/app.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/types.js';
import { connectSharedState } from '../../src/cli/shared-state.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import type { ChangeFeed } from '../../src/store/change-feed.js';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import type { Clock } from '../../src/util/clock.js';
import type { TestEngine } from './databases.js';

export interface RunningGateway {
  app: FastifyInstance;
  store: Store;
  /** e.g. http://127.0.0.1:PORT/api/v1 */
  baseUrl: string;
  managementKey: string;
  organizationId: string;
  /** The change notices this instance listens to (what another process's CLI command publishes). */
  changes: ChangeFeed;
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  /** Reuse an existing database (another instance of the same deployment). */
  databaseUrl?: string;
  /** Tuning of the chat flows. */
  chat?: AppOptions['chat'];
  /** Tuning of video jobs and their poller. */
  videos?: AppOptions['videos'];
  /** Timings of spend reservations; their holds are shared through Redis when redisUrl is given (as serve does). */
  spend?: Omit<NonNullable<AppOptions['spend']>, 'redis'>;
  /** The models served; none by default. */
  catalog?: Catalog;
  /** Share change notices and session pins through this Redis. */
  redisUrl?: string;
  /** Adds test-only routes before the server listens. */
  configure?: (app: FastifyInstance) => void;
  /** Network and search settings of the web, web-fetch and file-parser plugins. */
  plugins?: AppOptions['plugins'];
  /** How fetches for models resolve names. */
  resolve?: AppOptions['resolve'];
  /** The moderation plugin's provider. */
  moderation?: AppOptions['moderation'];
  /** Server tools the model may call. */
  serverTools?: AppOptions['serverTools'];
  /** Per-key request limits, counted in Redis when redisUrl is given (as serve does). */
  rateLimits?: RateLimitSettings;
  /** Interns runtime and tuning; turn quotas count in Redis when redisUrl is given. */
  interns?: AppOptions['interns'];
  /** Tuning of the interns runtime (shorter leases and timeouts, spawn and backoff), or false for none. */
  internRuntime?: AppOptions['internRuntime'];
  /** What clients may send and how long they may take (short timeouts keep slow-client tests fast). */
  clientLimits?: AppOptions['clientLimits'];
  /** How much of an upstream's answer the gateway holds. */
  upstreamLimits?: AppOptions['upstreamLimits'];
  /** Metrics, access log and traces as a test sets them. */
  observability?: AppOptions['observability'];
  /** Tuning of the observability destinations' sender, or false for none. */
  destinations?: AppOptions['destinations'];
  /** Where the server logs (the access log's tests read it); none by default. */
  logger?: AppOptions['logger'];
  /** BYOK master keys and fee rate. */
  byok?: AppOptions['byok'];
  /** The files API's storage and bounds (the database's storage by default). */
  files?: AppOptions['files'];
  /** How the task classifications sample chat requests. */
  classifications?: AppOptions['classifications'];
  /** Containers of the code_interpreter tool (CONTAINER_DEFAULTS by default). */
  containers?: AppOptions['containers'];
}

/** A movable clock for tests of expiry and resets. */
export function testClock(start = '2026-11-21T12:00:00.000Z') {
  let now = Date.parse(start);
  const clock: Clock = () => new Date(now);
  return {
    clock,
    set: (iso: string) => {
      now = Date.parse(iso);
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const BOOTSTRAP_KEY = 'sk-mg-v1-test-bootstrap-management-key-0000000000000000';

/** The real server, on a random port, over a real database of the given engine. */
export async function startGateway(engine: TestEngine, options: StartOptions = {}): Promise<RunningGateway> {
  const database = options.databaseUrl ? undefined : await engine.create();
  const url = options.databaseUrl ?? database!.url;
  const store = openStore(url);
  await migrateToLatest(store);
  const { organizationId } = await bootstrap(store.db, options.clock ?? (() => new Date()), BOOTSTRAP_KEY);
  const shared = await connectSharedState(store, options.redisUrl, { warn: () => undefined });
  const catalog = options.catalog ?? buildCatalog({ env: {}, knownKinds: PROVIDER_KINDS });
  const app = await buildApp({
    store,
    changes: shared.changes,
    sessionPins: shared.sessionPins,
    cachePins: shared.cachePins,
    catalog,
    ...(options.clock ? { clock: options.clock } : {}),
    // A constant draw makes load balancing cheapest-first, catalog order on ties: tests stay deterministic.
    chat: { random: () => 0.5, ...options.chat },
    ...(options.videos ? { videos: options.videos } : {}),
    spend: { ...options.spend, ...(shared.redis ? { redis: shared.redis.client } : {}) },
    ...(options.plugins ? { plugins: options.plugins } : {}),
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.moderation ? { moderation: options.moderation } : {}),
    ...(options.serverTools ? { serverTools: options.serverTools } : {}),
    ...(options.rateLimits ? { rateLimit: keyRateLimiter(options.rateLimits, shared.redis) } : {}),
    interns: { ...(shared.redis ? { redis: shared.redis } : {}), ...options.interns },
    ...(options.internRuntime !== undefined ? { internRuntime: options.internRuntime } : {}),
    ...(options.clientLimits ? { clientLimits: options.clientLimits } : {}),
    ...(options.upstreamLimits ? { upstreamLimits: options.upstreamLimits } : {}),
    ...(options.observability ? { observability: options.observability } : {}),
    ...(options.destinations !== undefined ? { destinations: options.destinations } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.byok ? { byok: options.byok } : {}),
    ...(options.files ? { files: options.files } : {}),
    ...(options.classifications ? { classifications: options.classifications } : {}),
    ...(options.containers ? { containers: options.containers } : {}),
  });
  options.configure?.(app);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    store,
    baseUrl: `${address}/api/v1`,
    managementKey: BOOTSTRAP_KEY,
    organizationId,
    changes: shared.changes,
    async close() {
      await app.close();
      await shared.close();
      await store.close();
      await database?.drop();
    },
  };
}

/** fetch against the gateway with JSON in and out. */
export async function call(
  gateway: Pick<RunningGateway, 'baseUrl'>,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the test sees the text.
  }
  return { status: response.status, body, headers: response.headers };
}
