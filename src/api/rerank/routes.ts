import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NO_RESERVATION } from '../../accounting/reservations.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import type { RerankRequest } from '../../protocol/rerank.js';
import { completeRerank } from '../../rerank/complete-rerank.js';
import { type RerankServices, rerankRunCeiling, startRerankRun } from '../../rerank/rerank-run.js';
import { clientGone, runContext } from '../request-context.js';
import { RerankRequestBody } from './schemas.js';

/** The fields a rerank uses, picked so that tolerated extras never reach the flow. */
const toRerankRequest = ({ model, query, documents, top_n, provider, user }: RerankRequestBody): RerankRequest => ({
  model,
  query,
  documents,
  ...(top_n !== undefined ? { top_n } : {}),
  ...(provider !== undefined ? { provider } : {}),
  ...(user !== undefined ? { user } : {}),
});

export function rerankRoutes(services: RerankServices & { auth: Authenticator; shutdown: Shutdown }): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Held until its ledger row is written: a stop closes the database only after.
    app.post('/rerank', { onRequest: services.auth.requireKey, schema: { body: RerankRequestBody } }, async (request, reply) =>
      services.shutdown.hold(async () => {
        const key = callerKey(request);
        const signal = clientGone(reply, services.shutdown.signal);
        const started = startRerankRun(services, key, toRerankRequest(request.body), runContext(request));
        // Admission: the run holds the most it can cost until settleRun charges it, or is released here.
        const reservation = await services.spend.reserve(key, () => rerankRunCeiling(started), { id: started.id });
        const run = reservation === NO_RESERVATION ? started : { ...started, reservation };
        try {
          return await completeRerank(services, await services.pipeline.prepareRerank(run, signal), signal);
        } catch (error) {
          throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
        } finally {
          void reservation.release();
        }
      }),
    );
  };
}
