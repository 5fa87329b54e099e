import type { Endpoint } from '../catalog/types.js';
import { adapterFor } from '../chat/adapter-for.js';
import { serveRun } from '../chat/serve-run.js';
import { settleRun } from '../chat/settle-run.js';
import { questionOptions } from '../protocol/decision-options.js';
import type { DecisionsResponse, OptionReading } from '../protocol/decisions.js';
import type { Attempt } from '../routing/plan-attempts.js';
import { answerQuestion } from './answer-question.js';
import {
  chatCallMost,
  type DecisionsRun,
  type DecisionsServices,
  isNative,
  nativeCallMost,
  nativeChars,
  promptChars,
} from './decisions-run.js';
import { type DecisionsCallFigures, decisionsUsage } from './decisions-usage.js';
import { questionPrompt, stateText } from './question-prompt.js';
import { readOptionReading } from './read-option-reading.js';

/** What one attempt got: what was said of each question, each call's figures, the provider's id. */
interface Decided {
  readings: Record<string, OptionReading>;
  calls: DecisionsCallFigures[];
  upstreamId?: string;
}

/** A decision model answers every question in one native call. */
async function decideNatively(
  services: DecisionsServices,
  run: DecisionsRun,
  attempt: Attempt<Endpoint>,
  signal: AbortSignal,
): Promise<Decided> {
  const { adapter, target } = adapterFor(services, attempt);
  const upstream = await adapter.decide(run.request, target, { signal, endUserId: run.endUserId });
  const figures: DecisionsCallFigures = {
    reported: { input: upstream.usage.input_tokens, output: upstream.usage.output_tokens },
    most: nativeCallMost(run.request),
    counted: { input: Math.ceil(nativeChars(run.request) / 4), output: Object.keys(run.request.questions).length },
  };
  return { readings: upstream.readings, calls: [figures], ...(upstream.id !== undefined ? { upstreamId: upstream.id } : {}) };
}

/** A chat model is asked every question at once, each as its own one-token call (question-prompt.ts). */
async function decideByChat(
  services: DecisionsServices,
  run: DecisionsRun,
  attempt: Attempt<Endpoint>,
  signal: AbortSignal,
): Promise<Decided> {
  const { adapter, target } = adapterFor({ catalog: services.catalog, adapters: services.chatAdapters }, attempt);
  const state = stateText(run.request.state);
  const asked = await Promise.all(
    Object.entries(run.request.questions).map(async ([id, question]) => {
      const request = questionPrompt(attempt.modelId, state, question);
      const completion = await adapter.complete(request, target, { signal, endUserId: run.endUserId });
      const figures: DecisionsCallFigures = {
        reported: { input: completion.usage?.prompt_tokens, output: completion.usage?.completion_tokens },
        most: chatCallMost(request),
        counted: { input: Math.ceil(promptChars(request) / 4), output: 1 },
      };
      return { id, reading: readOptionReading(completion, questionOptions(question).length), figures, upstreamId: completion.id };
    }),
  );
  return {
    readings: Object.fromEntries(asked.map((a) => [a.id, a.reading])),
    calls: asked.map((a) => a.figures),
    ...(asked[0]?.upstreamId !== undefined ? { upstreamId: asked[0].upstreamId } : {}),
  };
}

/**
 * A decisions request: try the plan as chat does (fallbacks, Retry-After,
 * health); on a decision model natively, on a chat model one lettered
 * question per call, all in parallel (a failed question fails the attempt,
 * and the plan moves on). One ledger row records it, charged for the
 * tokens of all its calls, and the answer carries the gateway's id.
 */
export function completeDecisions(services: DecisionsServices, run: DecisionsRun, signal: AbortSignal): Promise<DecisionsResponse> {
  return serveRun(
    services,
    run,
    signal,
    (attempt) => (isNative(services.catalog, attempt) ? decideNatively : decideByChat)(services, run, attempt, signal),
    async ({ result, attempt, outcomes }) => {
      const { estimated, ...usage } = decisionsUsage(result.calls);
      const { cost } = await settleRun(services, run, {
        status: 'success',
        streamed: false,
        attempt,
        outcomes,
        usage: {
          prompt_tokens: usage.input_tokens,
          completion_tokens: usage.output_tokens,
          total_tokens: usage.input_tokens + usage.output_tokens,
        },
        usageEstimated: estimated,
        ...(result.calls.length > 1 ? { calls: result.calls.length } : {}),
        upstreamId: result.upstreamId ?? null,
      });
      const answers = Object.fromEntries(
        Object.entries(run.request.questions).map(([id, question]) => [id, answerQuestion(question, result.readings[id]!)]),
      );
      return { id: run.id, model: attempt.modelId, provider: attempt.endpoint.provider, answers, usage: { ...usage, cost } };
    },
  );
}
