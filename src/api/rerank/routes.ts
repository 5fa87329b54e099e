import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NO_RESERVATION } from '../../accounting/reservations.js';
import { callerKey, type Authenticator } from '../../http/authenticate.js';
import { completeRerank } from '../../rerank/complete-rerank.js';
import { rerankRunCeiling, startRerankRun, type RerankServices } from '../../rerank/rerank-run.js';
import type { RerankRequest } from '../../rerank/types.js';
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

export function rerankRoutes(services: RerankServices & { auth: Authenticator }): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/rerank', { onRequest: services.auth.requireKey, schema: { body: RerankRequestBody } }, async (request, reply) => {
      const key = callerKey(request);
      const signal = clientGone(reply);
      const started = startRerankRun(services, key, toRerankRequest(request.body), runContext(request));
      // Admission: the run holds the most it can cost until settleRun charges it, or is released here.
      const reservation = await services.spend.reserve(key, () => rerankRunCeiling(started), { id: started.id });
      const run = reservation === NO_RESERVATION ? started : { ...started, reservation };
      try {
        return await completeRerank(services, await services.pipeline.prepareRerank(run, signal), signal);
      } finally {
        void reservation.release();
      }
    });
  };
}
