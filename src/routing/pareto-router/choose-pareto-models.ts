import type { RoutableModel } from '../routers/routable-model.js';
import type { ModelVerdict, RouterChoice } from '../routers/router-choice.js';
import { paretoFrontier } from './pareto-frontier.js';

/** The pareto-router plugin's fields (reference ParetoRouterPlugin). */
export interface ParetoRouterSettings {
  min_coding_score?: number;
  /** USD per million input tokens. */
  max_price?: number;
  price_source?: 'prompt' | 'weighted_avg';
}

export interface ParetoRouterInput {
  /** The catalog's chat models; those with a coding score take part. */
  models: readonly RoutableModel[];
  settings: ParetoRouterSettings;
  /** Requests an endpoint (model, provider) served lately, for the traffic-weighted price. */
  traffic: (model: string, provider: string) => number;
}

type Tier = 'high' | 'medium' | 'low';

/**
 * The reference's quality tiers, as the least coding-score percentile a
 * model needs among the scored models: top coding models (the top fifth),
 * strong flagships (the top two fifths), capable coders above the median.
 */
const TIER_FLOORS: Record<Tier, number> = { high: 80, medium: 60, low: 50 };

/** min_coding_score's mapping to tiers; omitted means the highest. */
const tierOf = (minScore: number | undefined): Tier =>
  minScore === undefined || minScore >= 0.66 ? 'high' : minScore >= 0.33 ? 'medium' : 'low';

const perMillion = (usd: number) => Math.round(usd * 1e6 * 1e6) / 1e6;

/**
 * The reference's "weighted_avg": each endpoint's prompt price (after its
 * discount) weighted by the requests it served lately; the list price when
 * the model served none.
 */
function weightedPromptPrice(model: RoutableModel, traffic: ParetoRouterInput['traffic']): { price: number; weighted: boolean } {
  let served = 0;
  let sum = 0;
  for (const e of model.endpoints) {
    const n = traffic(model.id, e.provider);
    served += n;
    sum += n * e.prompt;
  }
  return served > 0 ? { price: sum / served, weighted: true } : { price: model.promptPrice, weighted: false };
}

/**
 * The models the pareto-router tries, on the cost/quality frontier of coding
 * (reference ParetoRouterPlugin). Cost is the input price per the price
 * source, quality the coding score. With max_price, the frontier of the
 * models above the median is searched for the best-scoring model priced at
 * or under the cap, then cheaper frontier models, then the other affordable
 * ones; none left is the reference's 404. Otherwise min_coding_score picks a
 * quality tier and the cheapest frontier model of the tier goes first, then
 * its dearer frontier models, then the tier's others.
 */
export function chooseParetoModels({ models, settings, traffic }: ParetoRouterInput): RouterChoice {
  const source = settings.price_source ?? 'prompt';
  const dropped: ModelVerdict[] = [];
  const scored = models.filter((m) => m.scores.coding !== undefined);
  for (const m of models) if (m.scores.coding === undefined) dropped.push({ model: m.id, decision: 'dropped', reason: 'no coding score' });

  const coding = (m: RoutableModel) => m.scores.coding!;
  const prices = new Map(
    scored.map((m) => [m, source === 'weighted_avg' ? weightedPromptPrice(m, traffic) : { price: m.promptPrice, weighted: false }]),
  );
  const price = (m: RoutableModel) => prices.get(m)!.price;
  const span = Math.max(1, scored.length - 1);
  const percentile = (m: RoutableModel) => (scored.length === 1 ? 100 : (100 * scored.filter((o) => coding(o) < coding(m)).length) / span);

  const tier: Tier = settings.max_price !== undefined ? 'low' : tierOf(settings.min_coding_score);
  const pool = scored.filter((m) => percentile(m) >= TIER_FLOORS[tier]);
  for (const m of scored)
    if (!pool.includes(m))
      dropped.push({
        model: m.id,
        decision: 'dropped',
        reason: `coding score ${coding(m)} below the ${tier} tier (percentile ${Math.round(percentile(m))} < ${TIER_FLOORS[tier]})`,
      });

  const frontier = paretoFrontier(pool, price, coding);
  const describe = (m: RoutableModel) =>
    `coding score ${coding(m)}, $${perMillion(price(m))}/M input${prices.get(m)!.weighted ? ' (traffic-weighted)' : ''}, ${frontier.has(m) ? 'on' : 'off'} the frontier`;
  const byPrice = (a: RoutableModel, b: RoutableModel) => price(a) - price(b) || coding(b) - coding(a);
  const byScore = (a: RoutableModel, b: RoutableModel) => coding(b) - coding(a) || price(a) - price(b);

  let chosen: RoutableModel[];
  if (settings.max_price !== undefined) {
    const cap = settings.max_price;
    const affordable = pool.filter((m) => price(m) * 1e6 <= cap);
    for (const m of pool)
      if (!affordable.includes(m))
        dropped.push({ model: m.id, decision: 'dropped', reason: `$${perMillion(price(m))}/M input above max_price ${cap}` });
    chosen = [...affordable.filter((m) => frontier.has(m)).sort(byScore), ...affordable.filter((m) => !frontier.has(m)).sort(byScore)];
  } else {
    chosen = [...pool.filter((m) => frontier.has(m)).sort(byPrice), ...pool.filter((m) => !frontier.has(m)).sort(byPrice)];
  }

  const floor = pool.length > 0 ? Math.min(...pool.map(coding)) : null;
  const params = {
    price_source: source,
    ...(settings.max_price !== undefined ? { max_price: settings.max_price } : { tier }),
    quality_floor: floor,
  };
  const summary =
    chosen.length === 0
      ? settings.max_price !== undefined
        ? `no model with a coding score is priced at or under max_price $${settings.max_price}/M input (price_source ${source})`
        : 'no model has a coding score'
      : `${chosen[0]!.id}: ${settings.max_price !== undefined ? `best coding score at or under $${settings.max_price}/M input` : `cheapest frontier model of the ${tier} tier`} (${chosen.length} of ${models.length} models)`;
  return {
    models: chosen.map((m) => m.id),
    summary,
    params,
    verdicts: [...chosen.map((m): ModelVerdict => ({ model: m.id, decision: 'chosen', reason: describe(m) })), ...dropped],
  };
}
