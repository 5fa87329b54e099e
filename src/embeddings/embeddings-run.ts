import { type CostCeiling, inputCeiling } from '../accounting/reservation-ceiling.js';
import type { Run, RunContext } from '../chat/run.js';
import type { RunServices } from '../chat/run-services.js';
import { narrowPlan, startRun } from '../chat/start-run.js';
import { Errors } from '../http/errors.js';
import type { EmbeddingsAdapter } from '../protocol/adapters.js';
import type { EmbeddingsRequest } from '../protocol/embeddings.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { countInputTokens } from './embeddings-usage.js';

/** What the embeddings flow needs beyond the request; built once in app.ts. */
export interface EmbeddingsServices extends RunServices {
  adapters: Readonly<Record<string, EmbeddingsAdapter>>;
}

export type EmbeddingsRun = Run<EmbeddingsRequest>;

/**
 * Plans an embeddings request: the model's endpoints as chat plans them
 * (preferences, health, price). Token arrays are read only by protocols
 * that take them (OpenAI's): the other endpoints are left out of the plan,
 * and a model with none is a 400 naming the field.
 */
export function startEmbeddingsRun(
  services: EmbeddingsServices,
  key: ApiKeyRow,
  request: EmbeddingsRequest,
  context: RunContext,
): EmbeddingsRun {
  const run = startRun(services, key, request, context, { task: 'embeddings', requested: [request.model] });
  if (request.input.kind === 'text') return run;
  const attempts = run.attempts.filter((attempt) => {
    const kind = services.catalog.providers.get(attempt.endpoint.provider)?.kind;
    return kind !== undefined && services.adapters[kind]?.acceptsTokens === true;
  });
  if (attempts.length === 0) {
    throw Errors.invalidRequest(
      `input: token arrays are read only by providers of the OpenAI protocol, and no endpoint of ${request.model} left to this request is one; send the text instead`,
    );
  }
  return narrowPlan(run, attempts);
}

/** The most an embeddings request can cost: its input tokens as the gateway counts them, at the dearest endpoint's prices. */
export async function embeddingsRunCeiling(run: EmbeddingsRun): Promise<CostCeiling> {
  return inputCeiling({
    tokens: await countInputTokens(run.request.input),
    requests: 1,
    endpoints: run.attempts.map((attempt) => attempt.endpoint),
    at: new Date(run.startedAt),
  });
}
