import { computeCost } from '../accounting/compute-cost.js';
import { type CostCeiling, chatCeiling } from '../accounting/reservation-ceiling.js';
import { promptTokens } from '../accounting/reservation-prompt.js';
import { NO_RESERVATION } from '../accounting/reservations.js';
import type { Endpoint } from '../catalog/types.js';
import { loadTokenCounter } from '../plugins/shared/token-counter.js';
import type { ChatRequest, Usage } from '../protocol/chat.js';
import type { Attempt } from '../routing/plan-attempts.js';
import { roundUsd } from '../util/round-usd.js';
import type { ChatRun } from './run.js';
import type { ChatServices } from './run-services.js';

/** The most a planned chat can cost: its prompt counted with the tokenizer, its completion bound, on the dearest endpoint of its plan. */
export async function chatRunCeiling(services: Pick<ChatServices, 'catalog'>, run: ChatRun): Promise<CostCeiling> {
  const counter = await loadTokenCounter();
  const { request } = run;
  return chatCeiling({
    promptTokens: promptTokens(request, counter.count),
    maxTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
    endpoints: run.attempts.map(({ modelId, endpoint }) => ({
      pricing: endpoint.pricing,
      maxCompletionTokens: endpoint.maxCompletionTokens,
      contextLength: endpoint.contextLength ?? services.catalog.getModel(modelId)?.contextLength,
    })),
    webSearches: run.webSearches ?? 0,
    at: new Date(run.startedAt),
  });
}

/**
 * A planned chat through its admission and the pipeline: the most it can
 * cost is reserved first (402 before any plugin or upstream work when it
 * cannot be covered), then, when the pipeline changed the request (a plugin
 * added search results or file text, compression shortened it), the
 * reservation is resized to the request the attempts will send. The run
 * carries its reservation: settleRun settles it, and the caller releases it
 * in a `finally` for the ends that write no row. A failure here releases it.
 */
export async function prepareReservedChat(services: ChatServices, started: ChatRun, signal: AbortSignal): Promise<ChatRun> {
  const reservation = await services.spend.reserve(started.key, () => chatRunCeiling(services, started), { id: started.id });
  if (reservation === NO_RESERVATION) return services.pipeline.prepareChat(started, signal);
  const run = { ...started, reservation };
  try {
    const prepared = await services.pipeline.prepareChat(run, signal);
    if (prepared.request !== run.request || prepared.webSearches) await reservation.resize(() => chatRunCeiling(services, prepared));
    return prepared;
  } catch (error) {
    void reservation.release();
    throw error;
  }
}

/**
 * Before a further model call of a server-tool loop (the model called a
 * server tool; the gateway asks again with the results): the run holds what
 * its calls so far cost plus what this one can cost. When that no longer
 * fits, the 402 ends the run here, before the call.
 */
export async function holdForNextCall(
  services: Pick<ChatServices, 'catalog'>,
  run: ChatRun,
  attempt: Attempt<Endpoint>,
  request: ChatRequest,
  spent: Usage | undefined,
): Promise<void> {
  await run.reservation?.resize(async () => {
    const next = await chatRunCeiling(services, { ...run, request, attempts: [attempt] });
    const soFar = spent ? computeCost(attempt.endpoint.pricing, spent, new Date(run.startedAt)).total : 0;
    return {
      usd: roundUsd(soFar + next.usd),
      ...(next.tokens
        ? { tokens: { requested: next.tokens.requested, affordable: (usd: number) => next.tokens!.affordable(usd - soFar) } }
        : {}),
    };
  });
}
