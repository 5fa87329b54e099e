/** The auto-routers' named cost tiers (spec 2.2 rule 4). */
export const COST_TIERS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type CostTier = (typeof COST_TIERS)[number];

/** A band of cost percentiles, [from, to) or [from, to] when `inclusive`. */
export interface CostBand {
  from: number;
  to: number;
  inclusive: boolean;
  /** How the band was set, for the explanation. */
  label: string;
}

const TIER_BANDS: Record<CostTier, [number, number]> = { low: [0, 20], medium: [20, 40], high: [40, 60], xhigh: [60, 80], max: [80, 100] };

/** With no cost setting, cost_quality_tradeoff is 9 (spec 2.2 rule 5). */
export const DEFAULT_TRADEOFF = 9;

/**
 * The band a request asks for: cost_tier's band when given (it wins over the
 * deprecated tradeoff), else the tradeoff's ceiling, [0, 90 − 8 × tradeoff]:
 * 10 keeps the cheapest tenth, 0 up to the 90th percentile.
 */
export function costBand(tier: CostTier | undefined, tradeoff: number | undefined): CostBand {
  if (tier !== undefined) {
    const [from, to] = TIER_BANDS[tier];
    return { from, to, inclusive: tier === 'max', label: `cost_tier ${tier} [${from}, ${to}${tier === 'max' ? ']' : ')'}` };
  }
  const t = tradeoff ?? DEFAULT_TRADEOFF;
  const to = 90 - 8 * t;
  return { from: 0, to, inclusive: true, label: `cost_quality_tradeoff ${t}${tradeoff === undefined ? ' (default)' : ''}: [0, ${to}]` };
}

/**
 * Each item's cost percentile among all: the share of the others that cost
 * strictly less, 0 (cheapest) to 100 (dearest); equal costs share one.
 */
export function costPercentiles<T>(items: readonly T[], cost: (item: T) => number): Map<T, number> {
  const costs = items.map(cost);
  const sorted = [...costs].sort((a, b) => a - b);
  const below = (c: number) => sorted.findIndex((s) => s >= c);
  const span = Math.max(1, items.length - 1);
  return new Map(items.map((item, i) => [item, (100 * below(costs[i]!)) / span]));
}

const distance = (p: number, band: CostBand) =>
  p < band.from ? band.from - p : p > band.to || (p === band.to && !band.inclusive) ? p - band.to : 0;

/**
 * The items whose cost percentile lies in the band. A band no item falls in
 * (a small catalog leaves gaps) takes the items nearest to it, so a request
 * is never left without a model by percentile arithmetic alone.
 */
export function selectInBand<T>(percentiles: ReadonlyMap<T, number>, band: CostBand): { kept: T[]; nearest: boolean } {
  const items = [...percentiles.keys()];
  const inside = items.filter((item) => distance(percentiles.get(item)!, band) === 0);
  if (inside.length > 0 || items.length === 0) return { kept: inside, nearest: false };
  const closest = Math.min(...items.map((item) => distance(percentiles.get(item)!, band)));
  // Percentiles are thirds, sevenths…: equally near within floating-point noise.
  return { kept: items.filter((item) => distance(percentiles.get(item)!, band) - closest < 1e-9), nearest: true };
}
