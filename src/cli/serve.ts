import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { API_PREFIX, buildApp } from '../app.js';
import { buildCatalog } from '../catalog/build-catalog.js';
import { discoverLocalServers } from '../catalog/discover-local-models.js';
import { loadGatewayConfig } from '../config/load-gateway-config.js';
import { pluginSettings } from '../config/plugin-settings.js';
import type { Settings } from '../config/settings.js';
import { declaresCatalog } from '../catalog/from-config.js';
import { resolveModerationProvider } from '../plugins/moderation-provider.js';
import { MODERATION_ADAPTERS, PROVIDER_KINDS } from '../providers/registry.js';
import { openDatabase } from './open-database.js';
import { connectSharedState } from './shared-state.js';
import { keyRateLimiter } from '../rate-limits/key-rate-limiter.js';
import { checkpointInBackground } from '../store/wal-checkpoints.js';

/** How long in-flight requests (long streams included) may take to finish after SIGTERM. */
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * Stops accepting connections and waits for in-flight requests. A connection
 * that goes idle after its last response is closed at once (the server's own
 * sweep runs only when closing starts); past the deadline every connection is.
 */
async function drain(app: FastifyInstance, timeoutMs: number): Promise<void> {
  const closed = app.close();
  const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}

/** `model-gateway serve`: the API until SIGTERM or SIGINT, then a drain and exit 0. */
export async function serve(settings: Settings): Promise<void> {
  const logger = pino({ level: settings.logLevel });
  // Configuration is checked before anything else starts: never half-configured.
  const config = settings.configPath ? loadGatewayConfig(settings.configPath, { knownKinds: PROVIDER_KINDS }) : undefined;
  const catalogInputs = { ...(config ? { config } : {}), env: process.env, knownKinds: PROVIDER_KINDS };
  const catalog = buildCatalog({ ...catalogInputs, localModels: await discoverLocalServers(catalogInputs, fetch) });
  const moderation = resolveModerationProvider(config?.moderation, catalog, MODERATION_ADAPTERS, !declaresCatalog(config));

  const { store } = await openDatabase(settings.databaseUrl, settings.bootstrapManagementKey, logger);
  const checkpoints = checkpointInBackground(store, { onError: (message) => logger.warn({ error: message }, 'WAL checkpoint failed') });
  const shared = await connectSharedState(store, settings.redisUrl, logger);
  const plugins = pluginSettings(config, process.env);
  const rateLimit = config?.rate_limits ? keyRateLimiter(config.rate_limits, shared.redis) : undefined;
  const app = await buildApp({
    store,
    changes: shared.changes,
    sessionPins: shared.sessionPins,
    cachePins: shared.cachePins,
    catalog,
    logger,
    plugins,
    ...(moderation ? { moderation } : {}),
    ...(rateLimit ? { rateLimit } : {}),
    interns: shared.redis ? { redis: shared.redis } : {},
  });
  const address = await app.listen({ host: settings.host, port: settings.port });
  logger.info(`Model Gateway listening on ${address}${API_PREFIX} (${store.engine}, ${catalog.listModels().length} models)`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    try {
      await drain(app, DRAIN_TIMEOUT_MS);
      await shared.close();
      await checkpoints.stop();
      await store.close();
      logger.info('stopped');
      logger.flush();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', (s) => void stop(s));
  process.once('SIGINT', (s) => void stop(s));
}
