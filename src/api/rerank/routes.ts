import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey, type Authenticator } from '../../http/authenticate.js';
import { completeRerank } from '../../rerank/complete-rerank.js';
import { startRerankRun, type RerankServices } from '../../rerank/rerank-run.js';
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
      await services.assertCanSpend(key, services.clock());
      const signal = clientGone(reply);
      const run = await services.pipeline.prepareRerank(startRerankRun(services, key, toRerankRequest(request.body), runContext(request)), signal);
      return completeRerank(services, run, signal);
    });
  };
}
