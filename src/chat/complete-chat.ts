import { adapterFor, settleRun, type ChatRun, type ChatServices } from './chat-run.js';
import { serveRun } from './serve-run.js';
import { serviceMetadata } from './service-metadata.js';
import { webFetchToolFor, withCitations, withEntries } from '../plugins/chat-plugins.js';
import type { StageEntry } from '../plugins/stage-entry.js';
import { completeWithWebFetch } from '../plugins/web-fetch/complete-with-web-fetch.js';
import type { ChatCompletion, ChatRequest } from './types.js';

/**
 * A non-streaming chat: try the plan (running web_fetch when the model calls
 * it and the web-fetch plugin is on), add the web plugin's citations, charge
 * the key, answer with the gateway's id, the model and provider that served,
 * and the cost.
 */
export function completeChat(services: ChatServices, run: ChatRun, signal: AbortSignal): Promise<ChatCompletion & Record<string, unknown>> {
  return serveRun(
    services,
    run,
    signal,
    async (attempt): Promise<{ completion: ChatCompletion; entry?: StageEntry }> => {
      const { adapter, target } = adapterFor(services, attempt);
      const complete = (request: ChatRequest) => adapter.complete(request, target, { signal, endUserId: run.endUserId });
      const webFetch = webFetchToolFor(services.plugins, run);
      if (!webFetch) return { completion: await complete(run.request) };
      return completeWithWebFetch(run.request, webFetch, complete, signal);
    },
    async ({ result, attempt, outcomes }) => {
      const completion = withCitations(run, result.completion);
      const finished = withEntries(run, result.entry ? [result.entry] : []);
      const choice = completion.choices[0];
      const { cost } = await settleRun(services, finished, {
        status: 'success',
        streamed: false,
        attempt,
        outcomes,
        ...(completion.usage ? { usage: completion.usage } : {}),
        finishReason: choice?.finish_reason ?? null,
        nativeFinishReason: choice?.native_finish_reason ?? null,
        serviceTier: completion.service_tier ?? null,
        upstreamId: completion.id,
      });
      return {
        ...completion,
        id: run.id,
        model: attempt.modelId,
        provider: attempt.endpoint.provider,
        system_fingerprint: completion.system_fingerprint ?? null,
        usage: { ...(completion.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }), cost },
        ...(run.wantsMetadata ? { service_metadata: serviceMetadata({ ...finished.routing, attempts: outcomes }) } : {}),
      };
    },
  );
}
