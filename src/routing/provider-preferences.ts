/** Percentiles the reference lets a client set cut-offs for. */
export const PERCENTILES = ['p50', 'p75', 'p90', 'p99'] as const;
export type Percentile = (typeof PERCENTILES)[number];
export type Cutoffs = Partial<Record<Percentile, number>>;

export type SortBy = 'price' | 'throughput' | 'latency';
export type MaxPriceKey = 'prompt' | 'completion' | 'request' | 'image' | 'audio';

/** The request's `provider` object (reference ProviderPreferences), normalized for the planner. */
export interface ProviderPreferences {
  order?: readonly string[];
  only?: readonly string[];
  ignore?: readonly string[];
  allowFallbacks: boolean;
  requireParameters: boolean;
  dataCollection: 'allow' | 'deny';
  zdr: boolean;
  enforceDistillableText: boolean;
  quantizations?: readonly string[];
  sort?: { by: SortBy; partition: 'model' | 'none' };
  /** USD: per million tokens for prompt and completion, per unit for the rest. */
  maxPrice: Partial<Record<MaxPriceKey, number>>;
  /** Tokens per second. */
  preferredMinThroughput?: Cutoffs;
  /** Seconds. */
  preferredMaxLatency?: Cutoffs;
}

const SORTS: readonly string[] = ['price', 'throughput', 'latency'];
const PRICE_KEYS: readonly MaxPriceKey[] = ['prompt', 'completion', 'request', 'image', 'audio'];

const slugs = (v: unknown) => (Array.isArray(v) && v.length > 0 ? v.map((s) => String(s).toLowerCase()) : undefined);

/**
 * Reads an already schema-validated `provider` object. Nulls mean "default",
 * as the reference types every field nullable. `sort: "exacto"` has no
 * meaning here (no tool-calling quality data), so it sorts nothing.
 */
export function readProviderPreferences(raw: Record<string, unknown> | null | undefined): ProviderPreferences {
  const p = raw ?? {};
  const sortRaw = p.sort;
  const by = typeof sortRaw === 'string' ? sortRaw : sortRaw && typeof sortRaw === 'object' ? (sortRaw as { by?: unknown }).by : undefined;
  const partition = sortRaw && typeof sortRaw === 'object' && (sortRaw as { partition?: unknown }).partition === 'none' ? 'none' : 'model';
  const maxPrice: Partial<Record<MaxPriceKey, number>> = {};
  const priceRaw = (p.max_price ?? {}) as Record<string, unknown>;
  for (const key of PRICE_KEYS) if (priceRaw[key] !== undefined && priceRaw[key] !== null) maxPrice[key] = Number(priceRaw[key]);
  const out: ProviderPreferences = {
    allowFallbacks: p.allow_fallbacks !== false,
    requireParameters: p.require_parameters === true,
    dataCollection: p.data_collection === 'deny' ? 'deny' : 'allow',
    zdr: p.zdr === true,
    enforceDistillableText: p.enforce_distillable_text === true,
    maxPrice,
  };
  const order = slugs(p.order);
  const only = slugs(p.only);
  const ignore = slugs(p.ignore);
  const quantizations = Array.isArray(p.quantizations) && p.quantizations.length > 0 ? p.quantizations.map(String) : undefined;
  const throughput = cutoffs(p.preferred_min_throughput);
  const latency = cutoffs(p.preferred_max_latency);
  return {
    ...out,
    ...(order ? { order } : {}),
    ...(only ? { only } : {}),
    ...(ignore ? { ignore } : {}),
    ...(quantizations ? { quantizations } : {}),
    ...(typeof by === 'string' && SORTS.includes(by) ? { sort: { by: by as SortBy, partition } } : {}),
    ...(throughput ? { preferredMinThroughput: throughput } : {}),
    ...(latency ? { preferredMaxLatency: latency } : {}),
  };
}

/** A plain number is the p50 cut-off (reference PreferredMaxLatency). */
function cutoffs(v: unknown): Cutoffs | undefined {
  if (typeof v === 'number') return { p50: v };
  if (!v || typeof v !== 'object') return undefined;
  const out: Cutoffs = {};
  for (const p of PERCENTILES) {
    const n = (v as Record<string, unknown>)[p];
    if (typeof n === 'number') out[p] = n;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
