/** What the planner needs of a catalog model: its id and its provider endpoints, in preference order. */
export interface PlannableModel<E extends { provider: string }> {
  id: string;
  endpoints: readonly E[];
}

export interface Attempt<E> {
  modelId: string;
  endpoint: E;
}

export interface PlanInput<E extends { provider: string }> {
  /** The model asked for, then fallback models in order (`model`, then `models`). */
  requested: readonly string[];
  lookup: (id: string) => PlannableModel<E> | undefined;
  /** The provider a session is pinned to; its endpoint goes first while it is healthy. */
  stickyProvider?: string | undefined;
  /** Endpoints to try last (failed recently), as endpointKey(model, provider). */
  unhealthy?: ReadonlySet<string>;
}

export type Plan<E> = { attempts: Attempt<E>[]; unknownModels: string[] };

/**
 * The ordered attempts for a request: each requested model's endpoints in
 * catalog order, the session's provider first, unhealthy providers last, and
 * every model×provider pair once.
 */
export function planAttempts<E extends { provider: string }>(input: PlanInput<E>): Plan<E> {
  const attempts: Attempt<E>[] = [];
  const unknownModels: string[] = [];
  const seen = new Set<string>();
  for (const id of input.requested) {
    const model = input.lookup(id);
    if (!model) {
      unknownModels.push(id);
      continue;
    }
    for (const endpoint of orderEndpoints(model.id, model.endpoints, input.stickyProvider, input.unhealthy)) {
      const key = endpointKey(model.id, endpoint.provider);
      if (seen.has(key)) continue;
      seen.add(key);
      attempts.push({ modelId: model.id, endpoint });
    }
  }
  return { attempts, unknownModels };
}

/** One model served by one provider: the unit of health and of de-duplication. */
export const endpointKey = (modelId: string, provider: string) => `${modelId}@${provider}`;

function orderEndpoints<E extends { provider: string }>(
  modelId: string,
  endpoints: readonly E[],
  sticky: string | undefined,
  unhealthy: ReadonlySet<string> | undefined,
): E[] {
  const rank = (e: E) => (unhealthy?.has(endpointKey(modelId, e.provider)) ? 2 : e.provider === sticky ? 0 : 1);
  // Array.prototype.sort is stable: catalog order holds within a rank.
  return [...endpoints].sort((a, b) => rank(a) - rank(b));
}

/** `model` then `models`, without repeats; empty when neither is given. */
export function requestedModels(model: string | undefined, models: readonly string[] | undefined): string[] {
  return [...new Set([...(model ? [model] : []), ...(models ?? [])])];
}
