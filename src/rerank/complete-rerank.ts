import { adapterFor } from '../chat/adapter-for.js';
import { serveRun } from '../chat/serve-run.js';
import { serviceMetadata } from '../chat/service-metadata.js';
import { settleRun } from '../chat/settle-run.js';
import type { RerankResponse } from '../protocol/rerank.js';
import { rankResults } from './rank-results.js';
import type { RerankRun, RerankServices } from './rerank-run.js';
import { rerankUsage } from './rerank-usage.js';

/**
 * A rerank: try the plan as chat does (fallbacks, Retry-After, health), charge
 * the key for the search units and tokens as the endpoint prices them, and
 * answer with the gateway's id, the model and provider that served, and the cost.
 */
export function completeRerank(services: RerankServices, run: RerankRun, signal: AbortSignal): Promise<RerankResponse> {
  return serveRun(
    services,
    run,
    signal,
    async (attempt) => {
      const { adapter, target } = adapterFor(services, attempt);
      const upstream = await adapter.rerank(run.request, target, { signal });
      // Ranked inside the attempt: an answer that scores documents never sent is malformed and the plan moves on.
      return { upstream, results: rankResults(upstream.scores, run.request) };
    },
    async ({ result, attempt, outcomes }) => {
      const { usage, estimated } = rerankUsage(result.upstream.usage, run.request);
      const { cost } = await settleRun(services, run, {
        status: 'success',
        streamed: false,
        attempt,
        outcomes,
        // The ledger's token columns are chat's: what a rerank reads is its prompt.
        usage: { prompt_tokens: usage.total_tokens, completion_tokens: 0, total_tokens: usage.total_tokens },
        usageEstimated: estimated,
        searchUnits: usage.search_units,
        upstreamId: result.upstream.id ?? null,
      });
      return {
        id: run.id,
        model: attempt.modelId,
        provider: attempt.endpoint.provider,
        results: result.results,
        usage: { ...usage, cost },
        ...(run.wantsMetadata ? { service_metadata: serviceMetadata({ ...run.routing, attempts: outcomes }) } : {}),
      };
    },
  );
}
