import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NO_RESERVATION } from '../../accounting/reservations.js';
import { completeDecisions } from '../../decisions/complete-decisions.js';
import { type DecisionsServices, decisionsRunCeiling, startDecisionsRun } from '../../decisions/decisions-run.js';
import { readQuestions } from '../../decisions/read-questions.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { SHUTTING_DOWN, type Shutdown } from '../../http/shutdown.js';
import type { DecisionsRequest } from '../../protocol/decisions.js';
import { clientGone, runContext } from '../request-context.js';
import { DecisionsRequestBody } from './schemas.js';

/** The fields a decisions request uses, its questions checked, so that tolerated extras never reach the flow. */
const toDecisionsRequest = ({ model, state, questions, session_id, provider, user }: DecisionsRequestBody): DecisionsRequest => ({
  model,
  state,
  questions: readQuestions(questions),
  ...(session_id !== undefined ? { session_id } : {}),
  ...(provider !== undefined ? { provider } : {}),
  ...(user !== undefined ? { user } : {}),
});

/** The run's id marks a decision, as OpenRouter's do (`gen-dec-…`); its ledger row and GET /generation use the same. */
const decisionId = (id: string): string => id.replace(/^gen-/, 'gen-dec-');

/** POST /api/alpha/decisions (outside /api/v1, where OpenRouter serves it): typed questions about a state, answered with probabilities. */
export function decisionsRoutes(services: DecisionsServices & { auth: Authenticator; shutdown: Shutdown }): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Held until its ledger row is written: a stop closes the database only after.
    app.post('/decisions', { onRequest: services.auth.requireKey, schema: { body: DecisionsRequestBody } }, async (request, reply) =>
      services.shutdown.hold(async () => {
        const key = callerKey(request);
        const signal = clientGone(reply, services.shutdown.signal);
        const planned = await startDecisionsRun(services, key, toDecisionsRequest(request.body), runContext(request));
        const started = { ...planned, id: decisionId(planned.id) };
        // Admission: one hold covers every question, the most they can cost together, until settleRun charges it.
        const reservation = await services.spend.reserve(key, () => decisionsRunCeiling(services, started), { id: started.id });
        const run = reservation === NO_RESERVATION ? started : { ...started, reservation };
        try {
          return await completeDecisions(services, await services.pipeline.prepareDecisions(run, signal), signal);
        } catch (error) {
          throw signal.reason === SHUTTING_DOWN ? Errors.shuttingDown() : error;
        } finally {
          void reservation.release();
        }
      }),
    );
  };
}
