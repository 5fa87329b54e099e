import { adapterFor } from '../chat/adapter-for.js';
import { serveRun } from '../chat/serve-run.js';
import { serviceMetadata } from '../chat/service-metadata.js';
import { settleRun } from '../chat/settle-run.js';
import type { EmbeddingsResponse } from '../protocol/embeddings.js';
import { checkVectors, type EncodingFormat, embeddingItems } from './embedding-items.js';
import type { EmbeddingsRun, EmbeddingsServices } from './embeddings-run.js';
import { embeddingsUsage } from './embeddings-usage.js';

/**
 * An embeddings request: try the plan as chat does (fallbacks, Retry-After,
 * health), charge the key for the input tokens at the serving endpoint's
 * prompt price, and answer OpenAI's list with the gateway's id, the model
 * and provider that served, and the cost.
 */
export function completeEmbeddings(
  services: EmbeddingsServices,
  run: EmbeddingsRun,
  format: EncodingFormat,
  signal: AbortSignal,
): Promise<EmbeddingsResponse & { service_metadata?: unknown }> {
  return serveRun(
    services,
    run,
    signal,
    async (attempt) => {
      const { adapter, target } = adapterFor(services, attempt);
      const upstream = await adapter.embed(run.request, target, { signal, endUserId: run.endUserId });
      // Checked inside the attempt: vectors of the wrong length make the answer malformed and the plan moves on.
      checkVectors(upstream.vectors, run.request.dimensions);
      return upstream;
    },
    async ({ result, attempt, outcomes }) => {
      const { tokens, estimated } = await embeddingsUsage(result.usage, run.request.input);
      const { cost } = await settleRun(services, run, {
        status: 'success',
        streamed: false,
        attempt,
        outcomes,
        usage: { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens },
        usageEstimated: estimated,
        upstreamId: result.id ?? null,
      });
      return {
        id: run.id,
        object: 'list',
        model: attempt.modelId,
        provider: attempt.endpoint.provider,
        data: embeddingItems(result.vectors, format),
        usage: { prompt_tokens: tokens, total_tokens: tokens, cost },
        ...(run.wantsMetadata ? { service_metadata: serviceMetadata({ ...run.routing, attempts: outcomes }) } : {}),
      };
    },
  );
}
