import { offersTier, type ServiceTier } from '../protocol/routing-vocabulary.js';
import { type Exclusion, exclusionOf, FILTERS, type FilterableEndpoint } from './endpoint-filters.js';
import { rankingPrice } from './endpoint-price.js';
import type { EndpointFigures } from './endpoint-stats.js';
import { cacheAdvantage } from './prompt-cache/cache-advantage.js';
import { PERCENTILES, type ProviderPreferences, readProviderPreferences } from './provider-preferences.js';
import { inverseSquarePrice, weightedOrder } from './weighted-order.js';

/** What the planner needs of a catalog model: its id and its provider endpoints, in preference order. */
export interface PlannableModel<E extends FilterableEndpoint> {
  id: string;
  endpoints: readonly E[];
}

export interface Attempt<E> {
  modelId: string;
  endpoint: E;
  /** Set when the attempt goes out on a BYOK credential (byok/credential-attempts.ts), not the gateway's own; a function, so that no log or trace of the attempt carries the key. */
  credential?: { id: string; apiKey: () => string };
}

export interface PlanInput<E extends FilterableEndpoint> {
  /** The model asked for, then fallback models in order (`model`, then `models`). */
  requested: readonly string[];
  lookup: (id: string) => PlannableModel<E> | undefined;
  /** The request's `provider` object; none means the defaults. */
  preferences?: ProviderPreferences;
  /** The parameters the request sets (see usedParameters), for require_parameters. */
  parameters?: readonly string[];
  /** A tier the request requires (see requiredTier): with require_parameters only endpoints offering it stay. */
  serviceTier?: ServiceTier | undefined;
  /** The provider a session is pinned to; its endpoint goes first while it is healthy. */
  stickyProvider?: string | undefined;
  /** Per model, the provider that last served this conversation and holds its cached prompt prefix. */
  cachedProviders?: ReadonlyMap<string, string>;
  /** Endpoints to try last (failed recently), as endpointKey(model, provider). */
  unhealthy?: ReadonlySet<string>;
  /** The gateway's measurements of an endpoint (endpointKey), for sort and preferred_*. */
  figures?: (endpoint: string) => EndpointFigures | undefined;
  /** Draws of the price-weighted load balancing; injected so that tests are deterministic. */
  random?: () => number;
}

/** What the planner did with one candidate endpoint, and the rules that decided it. */
export interface CandidateReport {
  model: string;
  provider: string;
  decision: 'kept' | 'reordered' | 'dropped';
  reason: string;
}

/** fallback: price-weighted load balancing with fallbacks (the default); cache: prompt-cache stickiness within it. */
export type Strategy = 'fallback' | 'session' | 'cache' | 'order' | 'sort';

export interface Plan<E> {
  attempts: Attempt<E>[];
  unknownModels: string[];
  /** Every candidate: the planned ones in plan order, then the dropped ones. */
  candidates: CandidateReport[];
  strategy: Strategy;
  /** Set when preferences left nothing: which one removed the last candidate. */
  noEndpoint?: string;
}

/** One model served by one provider: the unit of health and of de-duplication. */
export const endpointKey = (modelId: string, provider: string) => `${modelId}@${provider}`;

interface Candidate<E> {
  modelIndex: number;
  modelId: string;
  endpoint: E;
  key: string;
  reasons: string[];
  exclusion?: Exclusion;
}

/**
 * The ordered attempts for a request and the reason for each candidate:
 * preferences drop endpoints (endpoint-filters.ts); `order`, then `sort`,
 * else price-weighted load balancing with the session's provider first and
 * the provider holding the conversation's prompt cache next (cachedFirst),
 * order each model's endpoints; endpoints missing a preferred_* cut-off go
 * after those that meet it (across models, as the reference says a fallback
 * model may then serve); failed-recently endpoints go last within their
 * model; every model×provider pair once.
 */
export function planAttempts<E extends FilterableEndpoint>(input: PlanInput<E>): Plan<E> {
  const prefs = input.preferences ?? readProviderPreferences(undefined);
  const unknownModels: string[] = [];
  const all: Candidate<E>[] = [];
  const seen = new Set<string>();
  const needs = { parameters: input.parameters ?? [], serviceTier: input.serviceTier };
  for (const [modelIndex, id] of input.requested.entries()) {
    const model = input.lookup(id);
    if (!model) {
      unknownModels.push(id);
      continue;
    }
    for (const endpoint of model.endpoints) {
      const key = endpointKey(model.id, endpoint.provider);
      if (seen.has(key)) continue;
      seen.add(key);
      const exclusion = exclusionOf(endpoint, prefs, needs);
      all.push({ modelIndex, modelId: model.id, endpoint, key, reasons: [], ...(exclusion ? { exclusion } : {}) });
    }
  }
  const eligible = all.filter((c) => !c.exclusion);
  const sticky = eligible.some((c) => c.endpoint.provider === input.stickyProvider) ? input.stickyProvider : undefined;
  // An explicit order or sort overrides stickiness, as the reference says of prompt-cache stickiness and provider.order.
  const explicit = prefs.order ? 'order' : prefs.sort ? 'sort' : undefined;
  const cacheFirst = explicit ? new Set<Candidate<E>>() : cachedFirst(eligible, input);
  const strategy: Strategy = explicit ?? (sticky ? 'session' : cacheFirst.size > 0 ? 'cache' : 'fallback');

  const base = baseOrder(eligible, prefs, strategy, input, sticky, cacheFirst);
  const global = strategy === 'sort' && prefs.sort?.partition === 'none';
  // Figures are computed only when a preferred_* cut-off asks for them: most requests set none.
  const hasCutoffs = prefs.preferredMaxLatency !== undefined || prefs.preferredMinThroughput !== undefined;
  const miss = new Map(base.map((c) => [c, hasCutoffs ? missedCutoff(input.figures?.(c.key), prefs) : undefined]));
  const unhealthy = (c: Candidate<E>) => input.unhealthy?.has(c.key) === true;
  for (const c of base) {
    if (input.serviceTier && !offersTier(c.endpoint.supportedServiceTiers, input.serviceTier))
      c.reasons.push(`service_tier ${input.serviceTier} not offered: sent without it`);
    const missed = miss.get(c);
    if (missed) c.reasons.push(`${missed}: after endpoints that meet it`);
    if (unhealthy(c)) c.reasons.push('failed in the last 30 s: tried last');
  }
  // Array.prototype.sort is stable: the base order holds within equal ranks.
  const ordered = [...base].sort(
    (a, b) =>
      Number(!!miss.get(a)) - Number(!!miss.get(b)) ||
      (global ? 0 : a.modelIndex - b.modelIndex) ||
      Number(unhealthy(a)) - Number(unhealthy(b)),
  );
  const planned = prefs.allowFallbacks || prefs.order ? ordered : firstPerModel(ordered);

  const dropped = all.filter((c) => c.exclusion);
  const candidates = [
    ...planned.map((c) => report(c, planned, eligible)),
    ...dropped.map((c) => ({
      model: c.modelId,
      provider: c.endpoint.provider,
      decision: 'dropped' as const,
      reason: `provider.${c.exclusion!.rule}: ${c.exclusion!.detail}`,
    })),
  ];
  const plan: Plan<E> = {
    attempts: planned.map((c) => ({ modelId: c.modelId, endpoint: c.endpoint })),
    unknownModels,
    candidates,
    strategy,
  };
  return planned.length === 0 && dropped.length > 0 ? { ...plan, noEndpoint: noEndpointMessage(input.requested, dropped) } : plan;
}

/** Each model's endpoints in the strategy's order (all models together for a sort with partition "none"). */
function baseOrder<E extends FilterableEndpoint>(
  eligible: Candidate<E>[],
  prefs: ProviderPreferences,
  strategy: Strategy,
  input: PlanInput<E>,
  sticky: string | undefined,
  cacheFirst: ReadonlySet<Candidate<E>>,
): Candidate<E>[] {
  if (strategy === 'order') {
    const order = prefs.order!;
    const at = (c: Candidate<E>) => order.indexOf(c.endpoint.provider.toLowerCase());
    const out: Candidate<E>[] = [];
    for (const c of eligible) {
      if (at(c) >= 0) c.reasons.push(`provider.order #${at(c) + 1}`);
      else if (prefs.allowFallbacks) c.reasons.push('not in provider.order: after the listed providers');
      else c.exclusion = { rule: 'allow_fallbacks', detail: 'false and not in provider.order', rank: FILTERS.length };
      if (!c.exclusion) out.push(c);
    }
    const rank = (c: Candidate<E>) => (at(c) >= 0 ? at(c) : order.length);
    return perModel(out, (group) => [...group].sort((a, b) => rank(a) - rank(b)));
  }
  if (strategy === 'sort') {
    const { by, partition } = prefs.sort!;
    const value = (c: Candidate<E>) => sortValue(c, by, input.figures?.(c.key));
    for (const c of eligible) c.reasons.push(`sort by ${by}: ${describeValue(by, value(c))}`);
    const sorted = (group: Candidate<E>[]) => [...group].sort((a, b) => value(a) - value(b));
    return partition === 'none' ? sorted(eligible) : perModel(eligible, sorted);
  }
  const random = input.random ?? Math.random;
  return perModel(eligible, (group) => {
    const weight = (c: Candidate<E>) => inverseSquarePrice(rankingPrice(c.endpoint.pricing));
    const total = group.reduce((s, c) => s + weight(c), 0);
    const isSticky = (c: Candidate<E>) => c.endpoint.provider === sticky;
    for (const c of group) {
      if (isSticky(c)) c.reasons.push('session pin: first');
      else if (!cacheFirst.has(c))
        c.reasons.push(
          `load balancing by price: ${Number.isFinite(total) ? Math.round((100 * weight(c)) / total) : weight(c) === Infinity ? 100 : 0}% weight`,
        );
    }
    const drawn = weightedOrder(group, weight, random);
    const cached = (c: Candidate<E>) => !isSticky(c) && cacheFirst.has(c);
    return [...drawn.filter(isSticky), ...drawn.filter(cached), ...drawn.filter((c) => !isSticky(c) && !cached(c))];
  });
}

/**
 * Prompt-cache stickiness: per model, the endpoint that holds the
 * conversation's cached prefix goes first while it is healthy and reading
 * the cache there costs less than an uncached prompt anywhere else; each
 * such endpoint is told why it was or was not preferred.
 */
function cachedFirst<E extends FilterableEndpoint>(eligible: Candidate<E>[], input: PlanInput<E>): Set<Candidate<E>> {
  const first = new Set<Candidate<E>>();
  if (!input.cachedProviders?.size) return first;
  for (const c of eligible) {
    if (input.cachedProviders.get(c.modelId) !== c.endpoint.provider) continue;
    const group = eligible.filter((o) => o.modelIndex === c.modelIndex);
    const { cheaper, read, cold } = cacheAdvantage(
      c.endpoint.pricing,
      group.map((o) => o.endpoint.pricing),
    );
    const holds = "prompt cache: holds this conversation's prefix";
    if (input.unhealthy?.has(c.key)) c.reasons.push(`${holds}, but failed lately`);
    else if (!cheaper)
      c.reasons.push(
        `${holds}, but ${read === undefined ? 'has no cache-read price' : `its cache read $${round(read * 1e6)}/M is not below the cheapest prompt $${round(cold * 1e6)}/M`}`,
      );
    else {
      c.reasons.push(`${holds} (cache read $${round(read! * 1e6)}/M < cheapest prompt $${round(cold * 1e6)}/M): first`);
      first.add(c);
    }
  }
  return first;
}

function perModel<E>(candidates: Candidate<E>[], order: (group: Candidate<E>[]) => Candidate<E>[]): Candidate<E>[] {
  const groups = new Map<number, Candidate<E>[]>();
  for (const c of candidates) groups.set(c.modelIndex, [...(groups.get(c.modelIndex) ?? []), c]);
  return [...groups.values()].flatMap(order);
}

/** Smaller is better; unknown measurements sort last. */
function sortValue<E extends FilterableEndpoint>(
  c: Candidate<E>,
  by: 'price' | 'throughput' | 'latency',
  figures: EndpointFigures | undefined,
): number {
  if (by === 'price') return rankingPrice(c.endpoint.pricing);
  if (by === 'throughput') return figures?.throughput ? -figures.throughput.p50 : Infinity;
  return figures ? figures.ttftMs.p50 : Infinity;
}

function describeValue(by: 'price' | 'throughput' | 'latency', value: number): string {
  if (value === Infinity) return 'not measured yet, last';
  if (by === 'price') return `$${round(value * 1e6)}/M tokens`;
  return by === 'throughput' ? `p50 ${round(-value)} tokens/s` : `p50 ${round(value / 1000)} s to first token`;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The first preferred_* cut-off the endpoint misses. Latency is time to
 * first token (seconds). An endpoint not measured yet misses nothing: no
 * evidence is no reason to demote it.
 */
export function missedCutoff(figures: EndpointFigures | undefined, prefs: ProviderPreferences): string | undefined {
  if (!figures) return undefined;
  for (const p of PERCENTILES) {
    const max = prefs.preferredMaxLatency?.[p];
    const latency = figures.ttftMs[p] / 1000;
    if (max !== undefined && latency > max) return `provider.preferred_max_latency: ${p} ${round(latency)} s > ${max} s`;
    const min = prefs.preferredMinThroughput?.[p];
    const throughput = figures.throughput?.[p];
    if (min !== undefined && throughput !== undefined && throughput < min)
      return `provider.preferred_min_throughput: ${p} ${round(throughput)} tokens/s < ${min}`;
  }
  return undefined;
}

/** allow_fallbacks: false without `order`: only each model's first choice (reference ProviderPreferences). */
function firstPerModel<E>(ordered: Candidate<E>[]): Candidate<E>[] {
  const firsts = new Set<number>();
  return ordered.filter((c) => {
    if (!firsts.has(c.modelIndex)) return (firsts.add(c.modelIndex), true);
    c.exclusion = { rule: 'allow_fallbacks', detail: 'false: only the first choice is tried', rank: FILTERS.length };
    return false;
  });
}

/** "kept" when the candidate holds its catalog place among its model's eligible endpoints. */
function report<E extends FilterableEndpoint>(c: Candidate<E>, planned: Candidate<E>[], eligible: Candidate<E>[]): CandidateReport {
  const place = (list: Candidate<E>[]) => list.filter((o) => o.modelIndex === c.modelIndex).indexOf(c);
  return {
    model: c.modelId,
    provider: c.endpoint.provider,
    decision: place(planned) === place(eligible) ? 'kept' : 'reordered',
    reason: c.reasons.join('; '),
  };
}

/** Names the preference that removed the last candidate: the latest-checked rule that dropped one. */
function noEndpointMessage<E extends FilterableEndpoint>(requested: readonly string[], dropped: Candidate<E>[]): string {
  const last = dropped.reduce((a, b) => (b.exclusion!.rank >= a.exclusion!.rank ? b : a));
  const e = last.exclusion!;
  return `No endpoints found for ${requested.join(', ')} matching your provider preferences: provider.${e.rule} removed the last candidate (${last.endpoint.provider}: ${e.detail})`;
}

/** `model` then `models`, without repeats; empty when neither is given. */
export function requestedModels(model: string | undefined, models: readonly string[] | undefined): string[] {
  return [...new Set([...(model ? [model] : []), ...(models ?? [])])];
}
