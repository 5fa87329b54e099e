import { tokenCapacity, UNKNOWN_CONTEXT_TOKENS } from '../accounting/check-usage.js';
import { computeCost } from '../accounting/compute-cost.js';
import type { CostCeiling } from '../accounting/reservation-ceiling.js';
import { modelTask } from '../catalog/model-task.js';
import type { Catalog, Endpoint } from '../catalog/types.js';
import type { Run, RunContext } from '../chat/run.js';
import type { RunServices } from '../chat/run-services.js';
import { startRun } from '../chat/start-run.js';
import { Errors } from '../http/errors.js';
import { loadTokenCounter } from '../plugins/shared/token-counter.js';
import type { ChatAdapter, DecisionsAdapter } from '../protocol/adapters.js';
import type { ChatRequest } from '../protocol/chat.js';
import { questionOptions } from '../protocol/decision-options.js';
import type { DecisionsRequest } from '../protocol/decisions.js';
import type { Attempt } from '../routing/plan-attempts.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { roundUsd } from '../util/round-usd.js';
import { questionPrompt, stateText } from './question-prompt.js';

/** What the decisions flow needs beyond the request; built once in app.ts. */
export interface DecisionsServices extends RunServices {
  /** Decision models' own protocol, by provider kind. */
  adapters: Readonly<Record<string, DecisionsAdapter>>;
  /** A chat model's, which serves decisions one lettered question at a time. */
  chatAdapters: Readonly<Record<string, ChatAdapter>>;
}

export type DecisionsRun = Run<DecisionsRequest>;

/** Whether an attempt's model is a decision model (called natively) rather than a chat model (asked question by question). */
export const isNative = (catalog: Catalog, attempt: Attempt<Endpoint>): boolean =>
  modelTask(catalog.getModel(attempt.modelId)!) === 'decisions';

/** What a question's prompt adds to its state and text: the instructions around them (question-prompt.ts). */
const PROMPT_FRAMING_TOKENS = 64;

/** The chars of what one call carries: a chat model's prompt messages, or the native body's state and questions. */
export const promptChars = (request: ChatRequest): number => request.messages.reduce((sum, m) => sum + String(m.content).length, 0);
export const nativeChars = (request: DecisionsRequest): number => JSON.stringify([request.state, request.questions]).length;

/**
 * The most a call can read and write, by the way it is served: a chat model
 * reads each question's prompt (tokenCapacity) and writes one token per
 * question, in one call each; a decision model reads the state and
 * questions once and writes at most a token per option weighed. Billing
 * holds the upstream's figures to these (decisions-usage.ts), so that the
 * ceiling is the most the request can cost.
 */
export function decisionsBounds(request: DecisionsRequest, native: boolean): { input: number; output: number; calls: number } {
  if (native) return { ...nativeCallMost(request), calls: 1 };
  const state = stateText(request.state);
  const calls = Object.values(request.questions).map((q) => chatCallMost(questionPrompt('', state, q)));
  return { input: calls.reduce((sum, c) => sum + c.input, 0), output: calls.length, calls: calls.length };
}

/** The most one question's call to a chat model reads (its two messages) and writes (one token). */
export const chatCallMost = (request: ChatRequest): { input: number; output: number } => ({
  input: tokenCapacity(promptChars(request), request.messages.length),
  output: 1,
});

/** The most a decision model's call reads (the state and questions) and writes (a token per option weighed). */
export const nativeCallMost = (request: DecisionsRequest): { input: number; output: number } => ({
  input: tokenCapacity(nativeChars(request)),
  output: Object.values(request.questions).reduce((sum, q) => sum + questionOptions(q).length, 0),
});

/**
 * Plans a decisions request: the model's endpoints in catalog order, a
 * decision model's or a chat model's (another task is a 400). A state whose
 * longest call does not fit the context of any endpoint is a 413 before
 * anything is reserved.
 */
export async function startDecisionsRun(
  services: DecisionsServices,
  key: ApiKeyRow,
  request: DecisionsRequest,
  context: RunContext,
): Promise<DecisionsRun> {
  const run = startRun(services, key, request, context, { task: 'decisions', requested: [request.model] });
  const { count } = await loadTokenCounter();
  // Counted once each: the state is read by every question of a chat model, the whole body by a decision model.
  const stateTokens = count(stateText(request.state));
  const questionTokens = Math.max(
    ...Object.values(request.questions).map((q) => count([q.instructions, ...questionOptions(q).map((o) => o.text)].join('\n'))),
  );
  const nativeTokens = count(JSON.stringify([request.state, request.questions]));
  let longest = 0;
  let room = 0;
  for (const attempt of run.attempts) {
    const tokens = isNative(services.catalog, attempt) ? nativeTokens : stateTokens + questionTokens + PROMPT_FRAMING_TOKENS;
    const context = attempt.endpoint.contextLength ?? services.catalog.getModel(attempt.modelId)?.contextLength ?? UNKNOWN_CONTEXT_TOKENS;
    if (tokens <= context) return run;
    longest = Math.max(longest, tokens);
    room = Math.max(room, context);
  }
  if (run.attempts.length === 0) return run;
  throw Errors.decisionStateTooLong({ tokens: longest, context: room }, request.model, longest, room);
}

/** The most a decisions request can cost: each endpoint of its plan at its bounds (decisionsBounds); the dearest sets it. */
export function decisionsRunCeiling(services: Pick<DecisionsServices, 'catalog'>, run: DecisionsRun): CostCeiling {
  const at = new Date(run.startedAt);
  let usd = 0;
  for (const attempt of run.attempts) {
    const { input, output, calls } = decisionsBounds(run.request, isNative(services.catalog, attempt));
    const usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
    usd = Math.max(usd, computeCost(attempt.endpoint.pricing, usage, at, calls).total);
  }
  return { usd: roundUsd(usd) };
}
