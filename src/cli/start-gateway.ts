import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { LedgerOutbox } from '../accounting/ledger-outbox.js';
import { keyRateLimiter } from '../accounts/key-rate-limiter.js';
import { Lifecycle } from '../api/health/lifecycle.js';
import { API_PREFIX, buildApp } from '../app.js';
import { byokSettings } from '../byok/byok-settings.js';
import { buildCatalog } from '../catalog/build-catalog.js';
import { discoverLocalServers } from '../catalog/discover-local-models.js';
import { declaresCatalog } from '../catalog/from-config.js';
import type { GatewayConfig } from '../config/gateway-config-schema.js';
import { pluginSettings } from '../config/plugin-settings.js';
import type { Settings } from '../config/settings.js';
import { filesService } from '../files/open-file-storage.js';
import { Shutdown } from '../http/shutdown.js';
import { type MetricsServer, startMetricsServer } from '../observability/metrics/metrics-server.js';
import { Observability } from '../observability/observability.js';
import { startTracing, type Tracing } from '../observability/tracing/start-tracing.js';
import { resolveModerationProvider } from '../plugins/moderation-provider.js';
import { MODERATION_ADAPTERS, PROVIDER_KINDS } from '../providers/registry.js';
import { checkpointInBackground } from '../store/wal-checkpoints.js';
import { outageLog } from '../util/outage-log.js';
import { packageVersion } from '../util/package-version.js';
import { assertCanListen, listenFailure } from './listen-address.js';
import { bootstrapOrganization, openMigratedStore } from './open-database.js';
import { connectSharedState } from './shared-state.js';
import { modelsByTask, noChatModelHint } from './start-banner.js';

/** After the drain deadline, how long interrupted requests have to write their ledger rows and last chunks. */
const INTERRUPT_GRACE_MS = 5_000;

export interface RunningGateway {
  /** The API's base URL, e.g. http://127.0.0.1:8080/api/v1. */
  baseUrl: string;
  /** Stops accepting, drains in-flight requests, then closes what the gateway opened. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The validated config file, when there is one. */
  config?: GatewayConfig;
  logger: Logger;
  /** How the person who started it changes the port, named when the port is taken. */
  portSetting?: string;
}

/**
 * Stops accepting connections and waits for in-flight requests. A connection
 * that goes idle after its last response is closed at once (the server's own
 * sweep runs only when closing starts). Past the deadline the requests still
 * running are interrupted: a stream ends with its error chunk and [DONE], and
 * every one writes its ledger row; only then are the connections closed.
 */
async function drain(app: FastifyInstance, shutdown: Shutdown, timeoutMs: number): Promise<void> {
  const closed = app.close();
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => {
    shutdown.interrupt();
    void shutdown.idle(INTERRUPT_GRACE_MS).then(() => app.server.closeAllConnections());
  }, timeoutMs);
  try {
    await closed;
    // A request whose client left can still be writing its row after its connection closed.
    await shutdown.idle(INTERRUPT_GRACE_MS);
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}

/**
 * The gateway, listening. Configuration and the port are checked before the
 * database is opened, and the default organization (with its first management
 * key) is created only once the server listens: a start that fails stores
 * nothing of a user's.
 */
export async function startGateway(settings: Settings, { config, logger, portSetting = 'PORT' }: StartOptions): Promise<RunningGateway> {
  const catalogInputs = { ...(config ? { config } : {}), env: process.env, knownKinds: PROVIDER_KINDS };
  const catalog = buildCatalog({ ...catalogInputs, localModels: await discoverLocalServers(catalogInputs, fetch) });
  const moderation = resolveModerationProvider(config?.moderation, catalog, MODERATION_ADAPTERS, !declaresCatalog(config));
  await assertCanListen(settings.host, settings.port, portSetting);

  const { sharedServices } = settings;
  // One warning when the database goes away and one line when it is back, whatever fails in between.
  const databaseOutage = outageLog(
    logger,
    'The database',
    'requests whose key is known are served and their ledger rows wait in the outbox',
  );
  const store = await openMigratedStore(settings.databaseUrl, logger, {
    connectTimeoutMs: sharedServices.databaseConnectTimeoutMs,
    queryTimeoutMs: sharedServices.databaseQueryTimeoutMs,
    outage: databaseOutage,
  });
  const checkpoints = checkpointInBackground(store, { onError: (message) => logger.warn({ error: message }, 'WAL checkpoint failed') });
  const closeStore = async () => {
    await checkpoints.stop();
    await store.close();
  };
  const outbox = await LedgerOutbox.open({
    directory: sharedServices.ledgerOutboxDir,
    maxBytes: sharedServices.ledgerOutboxMaxBytes,
  }).catch(async (error: unknown) => {
    await closeStore();
    throw error;
  });
  if (outbox.rows > 0) logger.warn({ rows: outbox.rows }, 'writing the ledger rows kept while the database was away');
  const closeStoreAndOutbox = async () => {
    await outbox.close();
    await closeStore();
  };
  const shared = await connectSharedState(store, settings.redisUrl, logger, {
    redisCommandTimeoutMs: sharedServices.redisCommandTimeoutMs,
    databaseOutage,
  }).catch(async (error: unknown) => {
    await closeStoreAndOutbox();
    throw error;
  });
  const closeAll = async () => {
    await shared.close();
    await closeStoreAndOutbox();
  };
  const lifecycle = new Lifecycle();
  const shutdown = new Shutdown();
  const operations = startOperations(settings.observability);
  let app: FastifyInstance | undefined;
  let metricsServer: MetricsServer | undefined;
  let address: string;
  try {
    const rateLimit = config?.rate_limits ? keyRateLimiter(config.rate_limits, shared.redis) : undefined;
    app = await buildApp({
      store,
      shutdown,
      changes: shared.changes,
      sessionPins: shared.sessionPins,
      cachePins: shared.cachePins,
      catalog,
      logger,
      plugins: pluginSettings(config, process.env),
      ...(moderation ? { moderation } : {}),
      ...(rateLimit ? { rateLimit } : {}),
      interns: shared.redis ? { redis: shared.redis } : {},
      ...(shared.redis ? { redis: shared.redis, spend: { redis: shared.redis.client } } : {}),
      lifecycle,
      ledgerOutbox: outbox,
      clientLimits: settings.clientLimits,
      upstreamLimits: settings.upstreamLimits,
      observability: operations.observability,
      byok: byokSettings(process.env),
      files: filesService(settings.files, store.db),
      containers: settings.containers,
    });
    address = await app.listen({ host: settings.host, port: settings.port }).catch((error: unknown) => {
      throw listenFailure(error, settings.host, settings.port, portSetting);
    });
    const { metricsListen, metricsToken } = settings.observability;
    if (metricsListen) {
      metricsServer = await startMetricsServer(operations.observability.metrics, metricsListen, metricsToken).catch((error: unknown) => {
        throw listenFailure(error, metricsListen.host, metricsListen.port, 'METRICS_LISTEN');
      });
      logger.info(`Metrics on ${metricsServer.url}/metrics`);
    }
    await bootstrapOrganization(store, settings.bootstrapManagementKey, logger);
    lifecycle.serving();
  } catch (error) {
    await app?.close();
    await metricsServer?.close();
    await operations.tracing?.shutdown();
    await closeAll();
    throw error;
  }

  const models = catalog.listModels();
  logger.info(`Model Gateway listening on ${address}${API_PREFIX} (${store.engine}; models: ${modelsByTask(models)})`);
  const hint = noChatModelHint(models, PROVIDER_KINDS);
  if (hint) logger.warn(hint);

  const running = app;
  return {
    baseUrl: `${address}${API_PREFIX}`,
    async stop() {
      lifecycle.draining();
      await drain(running, shutdown, settings.drainTimeoutMs);
      await metricsServer?.close();
      // The last spans (the drained requests') are sent before the process goes.
      await operations.tracing?.shutdown();
      await closeAll();
    },
  };
}

/** Metrics and the access log as the settings say, and traces when the OTEL_* variables configure them. */
function startOperations(settings: Settings['observability']): { observability: Observability; tracing: Tracing | undefined } {
  const tracing = settings.tracesUrl
    ? startTracing({ url: settings.tracesUrl, serviceName: settings.serviceName, version: packageVersion() })
    : undefined;
  const observability = new Observability({
    ...(settings.metricsToken ? { metricsToken: settings.metricsToken } : {}),
    metricsElsewhere: settings.metricsListen !== undefined,
    accessLog: { enabled: settings.accessLog, sample: settings.accessLogSample },
    ...(tracing ? { tracing } : {}),
  });
  return { observability, tracing };
}
