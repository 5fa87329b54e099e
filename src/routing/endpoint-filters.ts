import type { Endpoint } from '../catalog/types.js';
import { offersTier } from '../protocol/routing-vocabulary.js';
import type { MaxPriceKey, ProviderPreferences } from './provider-preferences.js';
import { type RequestNeeds, supportsParameter } from './request-parameters.js';

/** The catalog facts the filters read; unknown facts are absent. */
export type FilterableEndpoint = Pick<Endpoint, 'provider' | 'pricing'> &
  Partial<Pick<Endpoint, 'supportedParameters' | 'quantization' | 'dataCollection' | 'zdr' | 'distillable' | 'supportedServiceTiers'>>;

/** Why a preference excludes an endpoint: the preference's name and a readable detail. */
export interface Exclusion {
  rule: string;
  detail: string;
  /** Position of the rule in the checks: the latest rule to drop a candidate is the one that left nothing. */
  rank: number;
}

type Filter = (e: FilterableEndpoint, p: ProviderPreferences, needs: RequestNeeds) => Omit<Exclusion, 'rank'> | undefined;

/** Per million tokens for prompt and completion (the reference's unit), per unit otherwise. */
const PRICE_SCALE: Record<MaxPriceKey, number> = { prompt: 1e6, completion: 1e6, request: 1, image: 1, audio: 1 };

/**
 * The provider preferences that drop endpoints, in the order they are
 * checked: an endpoint is reported under the first one it fails. Unknown
 * facts fail the privacy filters: "may collect" unless the catalog says not.
 */
export const FILTERS: readonly Filter[] = [
  (e, p) => (p.only && !p.only.includes(e.provider.toLowerCase()) ? { rule: 'only', detail: 'not in provider.only' } : undefined),
  (e, p) => (p.ignore?.includes(e.provider.toLowerCase()) ? { rule: 'ignore', detail: 'in provider.ignore' } : undefined),
  (e, p) => {
    const q = e.quantization ?? 'unknown';
    return p.quantizations && !p.quantizations.includes(q) ? { rule: 'quantizations', detail: `quantization ${q} not allowed` } : undefined;
  },
  (e, p) =>
    p.dataCollection === 'deny' && e.dataCollection !== 'deny'
      ? { rule: 'data_collection', detail: e.dataCollection ? 'may collect data' : 'data policy unknown' }
      : undefined,
  (e, p) => (p.zdr && e.zdr !== true ? { rule: 'zdr', detail: 'no zero data retention' } : undefined),
  (e, p) =>
    p.enforceDistillableText && e.distillable !== true ? { rule: 'enforce_distillable_text', detail: 'text not distillable' } : undefined,
  (e, p, { parameters, serviceTier }) => {
    if (!p.requireParameters) return undefined;
    const missing = parameters.filter((name) => !supportsParameter(e.supportedParameters, name));
    if (serviceTier && !offersTier(e.supportedServiceTiers, serviceTier)) missing.push(`service_tier ${serviceTier}`);
    return missing.length > 0 ? { rule: 'require_parameters', detail: `does not support ${missing.join(', ')}` } : undefined;
  },
  (e, p) => {
    for (const [key, max] of Object.entries(p.maxPrice) as [MaxPriceKey, number][]) {
      const price = (e.pricing[key] ?? 0) * (1 - (e.pricing.discount ?? 0)) * PRICE_SCALE[key];
      if (price > max) return { rule: 'max_price', detail: `${key} price ${round(price)} > ${max}` };
    }
    return undefined;
  },
];

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** The first preference that excludes the endpoint, if any. */
export function exclusionOf(endpoint: FilterableEndpoint, preferences: ProviderPreferences, needs: RequestNeeds): Exclusion | undefined {
  for (const [rank, filter] of FILTERS.entries()) {
    const exclusion = filter(endpoint, preferences, needs);
    if (exclusion) return { ...exclusion, rank };
  }
  return undefined;
}
