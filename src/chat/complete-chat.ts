import { adapterFor, settleRun, type ChatRun, type ChatServices } from './chat-run.js';
import { serveRun } from './serve-run.js';
import { serviceMetadata } from './service-metadata.js';
import type { ChatCompletion } from './types.js';

/**
 * A non-streaming chat: try the plan, charge the key, answer with the
 * gateway's id, the model and provider that served, and the cost.
 */
export function completeChat(services: ChatServices, run: ChatRun, signal: AbortSignal): Promise<ChatCompletion & Record<string, unknown>> {
  return serveRun(
    services,
    run,
    signal,
    (attempt) => {
      const { adapter, target } = adapterFor(services, attempt);
      return adapter.complete(run.request, target, { signal, endUserId: run.endUserId });
    },
    async ({ result: completion, attempt, outcomes }) => {
      const choice = completion.choices[0];
      const { cost } = await settleRun(services, run, {
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
        ...(run.wantsMetadata ? { service_metadata: serviceMetadata({ ...run.routing, attempts: outcomes }) } : {}),
      };
    },
  );
}
