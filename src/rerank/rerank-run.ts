import { type CostCeiling, inputCeiling } from '../accounting/reservation-ceiling.js';
import type { Run, RunContext } from '../chat/run.js';
import type { RunServices } from '../chat/run-services.js';
import { startRun } from '../chat/start-run.js';
import { loadTokenCounter } from '../plugins/shared/token-counter.js';
import type { RerankAdapter } from '../protocol/adapters.js';
import type { RerankRequest } from '../protocol/rerank.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { countSearchUnits } from './rerank-usage.js';

/** What the rerank flow needs beyond the request; built once in app.ts. */
export interface RerankServices extends RunServices {
  adapters: Readonly<Record<string, RerankAdapter>>;
}

export type RerankRun = Run<RerankRequest>;

/** Plans a rerank: the model's endpoints in catalog order, failed ones last. A chat model is a 400. */
export function startRerankRun(services: RerankServices, key: ApiKeyRow, request: RerankRequest, context: RunContext): RerankRun {
  return startRun(services, key, request, context, { task: 'rerank', requested: [request.model] });
}

/**
 * The most a rerank can cost: its search units, and its tokens as a
 * provider that reads the query with every document counts them, on the
 * dearest endpoint of its plan.
 */
export async function rerankRunCeiling(run: RerankRun): Promise<CostCeiling> {
  const { count } = await loadTokenCounter();
  const { query, documents } = run.request;
  return inputCeiling({
    tokens: count(query) * documents.length + count(documents.join('\n')),
    requests: countSearchUnits(documents.length),
    endpoints: run.attempts.map((attempt) => attempt.endpoint),
    at: new Date(run.startedAt),
  });
}
