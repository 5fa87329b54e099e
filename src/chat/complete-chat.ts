import type { PipelineEntry } from '../plugins/pipeline-entry.js';
import { completeWithServerTools } from '../plugins/server-tools.js';
import { adapterFor, settleRun, type ChatRun, type ChatServices } from './chat-run.js';
import { serveRun } from './serve-run.js';
import { serviceMetadata } from './service-metadata.js';
import type { ChatCompletion } from './types.js';

/**
 * A non-streaming chat: try the plan (running the server tools the model
 * calls, when a plugin offers some), let the post-response stages see the
 * answer, charge the key, answer with the gateway's id, the model and
 * provider that served, and the cost.
 */
export function completeChat(services: ChatServices, run: ChatRun, signal: AbortSignal): Promise<ChatCompletion & Record<string, unknown>> {
  const serverTools = run.plugins ? services.pipeline.serverTools.active(run.plugins) : [];
  return serveRun(
    services,
    run,
    signal,
    async (attempt): Promise<{ completion: ChatCompletion; entry?: PipelineEntry }> => {
      const { adapter, target } = adapterFor(services, attempt);
      const complete = (request: ChatRun['request']) => adapter.complete(request, target, { signal, endUserId: run.endUserId });
      if (serverTools.length === 0) return { completion: await complete(run.request) };
      return completeWithServerTools(run.request, serverTools, complete, signal);
    },
    async ({ result, attempt, outcomes }) => {
      const withTools: ChatRun = result.entry ? { ...run, routing: { ...run.routing, pipeline: [...(run.routing.pipeline ?? []), result.entry] } } : run;
      const { completion, run: finished } = services.pipeline.finishChat(withTools, result.completion);
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
