import { computeCost } from '../accounting/compute-cost.js';
import type { Endpoint } from '../catalog/types.js';
import type { PipelineEntry } from '../plugins/pipeline-entry.js';
import { stopConditions } from '../plugins/server-tools/stop-conditions.js';
import { completeWithServerTools, type ServerToolRun, type ToolLoopOptions } from '../plugins/server-tools/tool-loop.js';
import type { ChatCompletion, Usage } from '../protocol/chat.js';
import type { MessagesResponse } from '../protocol/messages.js';
import type { Attempt } from '../routing/plan-attempts.js';
import { adapterFor } from './adapter-for.js';
import { answerTextOf, checkChatUsage } from './check-chat-usage.js';
import { innerCalls } from './inner-calls.js';
import { nativeMessagesOf } from './native-messages.js';
import { holdForNextCall } from './reserve-chat-run.js';
import type { ChatRun } from './run.js';
import type { ChatServices } from './run-services.js';
import { serveRun } from './serve-run.js';
import { serviceMetadata } from './service-metadata.js';
import { settleRun } from './settle-run.js';
import { sumUsage, withWebSearches } from './sum-usage.js';
import { toolBilling } from './tool-billing.js';

/** The server tools a run has (its plugins' and its `tools` entries'). */
export const serverToolsOf = (services: ChatServices, run: ChatRun) =>
  services.pipeline.serverTools.active(run.plugins ?? new Map(), run.request.server_tools);

/** The run as recorded: with its server-tool loop's pipeline entry, when it had one. */
export const withLoopEntry = (run: ChatRun, entry: PipelineEntry | undefined): ChatRun =>
  entry ? { ...run, routing: { ...run.routing, pipeline: [...(run.routing.pipeline ?? []), entry] } } : run;

/** The server-tool loop's options for one attempt: stop conditions, prices for max_cost, inner calls and tools' own work linked to the run. */
export function toolLoopOptions(services: ChatServices, run: ChatRun, attempt: Attempt<Endpoint>, signal: AbortSignal): ToolLoopOptions {
  return {
    signal,
    model: attempt.modelId,
    inner: innerCalls(services, run, completeChat),
    billing: toolBilling(services, run),
    conditions: stopConditions(run.request.stop_server_tools_when),
    costOf: (usage) => computeCost(attempt.endpoint.pricing, usage, new Date(run.startedAt)).total,
  };
}

/**
 * One attempt's completion, running the server tools the model calls when
 * the run has some (chat's and Responses' alike): each further call of the
 * loop is held for first, on top of what the calls so far cost. `runs` are
 * the tools' calls with their results.
 */
export async function completeWithRunTools(
  services: ChatServices,
  run: ChatRun,
  attempt: Attempt<Endpoint>,
  complete: (request: ChatRun['request']) => Promise<ChatCompletion>,
  signal: AbortSignal,
): Promise<{ result: ChatCompletion; entry?: PipelineEntry; innerCost: number; runs?: readonly ServerToolRun[] }> {
  const serverTools = serverToolsOf(services, run);
  if (serverTools.length === 0) return { result: await complete(run.request), innerCost: 0 };
  let spent: Usage | undefined;
  let calls = 0;
  const step = async (request: ChatRun['request']) => {
    if (calls++ > 0) await holdForNextCall(services, run, attempt, request, spent);
    const completion = await complete(request);
    spent = sumUsage(spent, completion.usage);
    return completion;
  };
  return completeWithServerTools(run.request, serverTools, step, toolLoopOptions(services, run, attempt, signal));
}

/**
 * A non-streaming chat: try the plan (running the server tools the model
 * calls, when the request has some), let the post-response stages see the
 * answer, charge the key for the usage checked (check-chat-usage.ts), answer with the gateway's id, the model and
 * provider that served, and the cost: this generation's, plus what its
 * inner calls (fusion) cost on their own rows.
 */
export async function completeChat(
  services: ChatServices,
  run: ChatRun,
  signal: AbortSignal,
): Promise<ChatCompletion & Record<string, unknown>> {
  return (await completeChatRun(services, run, signal)).completion;
}

/**
 * completeChat's work, and for a POST /messages run that went untranslated
 * (native-messages.ts), the upstream's own Message: the completion is then
 * its canonical reading, which the run was checked, billed and recorded by.
 */
export function completeChatRun(
  services: ChatServices,
  run: ChatRun,
  signal: AbortSignal,
): Promise<{ completion: ChatCompletion & Record<string, unknown>; native?: MessagesResponse }> {
  const serverTools = serverToolsOf(services, run);
  return serveRun(
    services,
    run,
    signal,
    async (attempt): Promise<{ result: ChatCompletion; entry?: PipelineEntry; innerCost: number; native?: MessagesResponse }> => {
      const { adapter, target } = adapterFor(services, attempt);
      const native = nativeMessagesOf(run, adapter, target, serverTools.length);
      if (native) {
        const { message, completion } = await native.calls.complete(
          native.request.body,
          target,
          native.context({ signal, endUserId: run.endUserId }),
        );
        return { result: completion, innerCost: 0, native: message };
      }
      const complete = (request: ChatRun['request']) => adapter.complete(request, target, { signal, endUserId: run.endUserId });
      return completeWithRunTools(services, run, attempt, complete, signal);
    },
    async ({ result, attempt, outcomes }) => {
      const { completion, run: finished } = services.pipeline.finishChat(withLoopEntry(run, result.entry), result.result);
      const choice = completion.choices[0];
      // The upstream's figures are checked against what it answered, before the post-response stages changed it.
      const checked = await checkChatUsage(result.result.usage, run.request, attempt.endpoint, answerTextOf(result.result));
      const usage = withWebSearches(checked.usage, run.webSearches);
      const { cost } = await settleRun(services, finished, {
        status: 'success',
        streamed: false,
        attempt,
        outcomes,
        usage,
        usageEstimated: checked.estimated,
        finishReason: choice?.finish_reason ?? null,
        nativeFinishReason: choice?.native_finish_reason ?? null,
        serviceTier: completion.service_tier ?? null,
        upstreamId: completion.id,
        ...(run.storedInput
          ? { output: { completion: choice?.message.content ?? null, reasoning: choice?.message.reasoning ?? null } }
          : {}),
      });
      const shaped = {
        ...completion,
        id: run.id,
        model: attempt.modelId,
        provider: attempt.endpoint.provider,
        system_fingerprint: completion.system_fingerprint ?? null,
        usage: { ...usage, cost: cost + result.innerCost + (run.innerCost ?? 0) },
        ...(run.wantsMetadata ? { service_metadata: serviceMetadata({ ...finished.routing, attempts: outcomes }) } : {}),
      };
      return { completion: shaped, ...(result.native ? { native: result.native } : {}) };
    },
  );
}
