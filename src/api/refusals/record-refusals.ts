import type { FastifyInstance } from 'fastify';
import { type Refusal, refusalRow } from '../../accounting/refusal-row.js';
import { LimitedRefusals } from '../../accounts/limited-refusals.js';
import type { ModelTask } from '../../catalog/model-task.js';
import type { RunServices } from '../../chat/run-services.js';
import { API_TYPES } from '../../chat/settle-run.js';
import { toGatewayError } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { isDatabaseUnavailable } from '../../store/database-unavailable.js';
import { runContext } from '../request-context.js';

/** The routes whose requests are generations, by path below the API prefix: a refusal of one is a ledger row. */
const PAID_ROUTES: Readonly<Record<string, ModelTask>> = {
  '/chat/completions': 'chat',
  '/responses': 'chat',
  '/messages': 'chat',
  '/rerank': 'rerank',
  '/embeddings': 'embeddings',
  '/images': 'image',
  '/images/generations': 'image',
  '/images/edits': 'image',
  '/audio/speech': 'speech',
  '/audio/transcriptions': 'transcription',
  '/videos': 'video',
  '/decisions': 'decisions',
};

/**
 * Every request to a paid route that passed authentication is in the ledger,
 * served or not: one refused before any upstream call (a bad body, a spent
 * limit, a guardrail, an unknown model, a body too large, the key's rate
 * limit) gets a row of its own, cost 0, through the ledger's group commit, before
 * the refusal is answered. A request whose run already wrote its row (it
 * reached a provider) gets none more. Of a key's 429s only the first of each
 * rate-limit window is kept (LimitedRefusals). Installed on the scope of the
 * routes, before they are registered; only an error runs it.
 */
export function recordRefusals(scope: FastifyInstance, { ledger, clock }: Pick<RunServices, 'ledger' | 'clock'>, prefix: string): void {
  const apiTypes = new Map(Object.entries(PAID_ROUTES).map(([path, task]) => [`${prefix}${path}`, API_TYPES[task]]));
  const limited = new LimitedRefusals(() => clock().getTime());
  const bodyLimit = scope.initialConfig.bodyLimit ?? 0;
  scope.decorateRequest('generationRecorded', false);
  scope.addHook('onError', async (request, _reply, error) => {
    const key = request.apiKey;
    const apiType = request.method === 'POST' ? apiTypes.get(request.routeOptions.url ?? '') : undefined;
    if (!key || apiType === undefined || request.generationRecorded) return;
    const refused = toGatewayError(error, bodyLimit, request);
    if (refused.code === Errors.keyRateLimited.code && !limited.admit(key.hash, Number(refused.metadata?.retry_after_seconds ?? 1))) return;
    const { origin, userAgent } = runContext(request);
    const refusal: Refusal = { key, requestId: request.id, body: request.body, apiType, origin, userAgent, error: refused };
    try {
      await ledger.record(refusalRow(refusal, clock()));
    } catch (failure) {
      // The refusal is answered all the same: a ledger that cannot take its row must not turn it into a 500.
      if (isDatabaseUnavailable(failure))
        request.log.debug({ err: failure, reqId: request.id }, 'refusal not recorded: the database is unavailable');
      else request.log.warn({ err: failure, reqId: request.id }, 'refusal not recorded');
    }
  });
}
