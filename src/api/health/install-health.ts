import type { FastifyInstance } from 'fastify';
import { Errors } from '../../http/errors.js';
import type { Store } from '../../store/database.js';
import { pendingMigrations } from '../../store/migrate.js';
import { Lifecycle } from './lifecycle.js';
import { type ReadinessSources, readinessCheck } from './readiness.js';
import { healthRoutes } from './routes.js';

export interface HealthOptions {
  store: Store;
  /** The process's phase, moved by its start and stop (cli/start-gateway.ts); otherwise serving once the server is ready. */
  lifecycle?: Lifecycle;
  redis?: ReadinessSources['redis'];
  outbox?: ReadinessSources['outbox'];
}

/** GET /health and GET /ready at the root, outside the API's prefix, as load balancers and Kubernetes probes expect them. */
export async function installHealth(app: FastifyInstance, options: HealthOptions): Promise<void> {
  const lifecycle = options.lifecycle ?? new Lifecycle();
  if (!options.lifecycle) app.addHook('onReady', async () => lifecycle.serving());
  // Not ready from the moment closing starts, even while in-flight requests drain.
  app.addHook('preClose', async () => lifecycle.draining());
  // A request that still reaches this instance then (on a kept-alive connection) is refused and its connection
  // closed, so that its client retries elsewhere; the probes and the metrics (a drain is worth watching) keep answering.
  app.addHook('onRequest', (request, reply, done) => {
    if (lifecycle.phase !== 'draining' || request.url === '/health' || request.url === '/ready' || request.url === '/metrics')
      return done();
    void reply.header('connection', 'close');
    done(Errors.shuttingDown());
  });
  const { store, redis, outbox } = options;
  await app.register(healthRoutes(readinessCheck({ pendingMigrations: () => pendingMigrations(store), lifecycle, redis, outbox })));
}
