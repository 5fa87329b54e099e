import type { Pricing, PricingOverride } from '../catalog/types.js';

const CONDITIONS = new Set<keyof PricingOverride>(['min_prompt_tokens', 'utc_start', 'utc_end']);

/** The UTC clock as the reference's HHMM number (10:30 → 1030). */
const hhmm = (at: Date) => at.getUTCHours() * 100 + at.getUTCMinutes();

/** [utc_start, utc_end), wrapping past midnight when start > end; an open side is unbounded. */
function inWindow(override: PricingOverride, at: Date): boolean {
  const { utc_start: start, utc_end: end } = override;
  if (start === undefined && end === undefined) return true;
  const now = hhmm(at);
  if (start === undefined) return now < end!;
  if (end === undefined) return now >= start;
  return start <= end ? now >= start && now < end : now >= start || now < end;
}

function applies(override: PricingOverride, promptTokens: number, at: Date): boolean {
  if (override.min_prompt_tokens !== undefined && !(promptTokens > override.min_prompt_tokens)) return false;
  return inWindow(override, at);
}

/**
 * The prices that hold for one request, as the reference's PricingOverride
 * says: an override applies when all its conditions match (prompt tokens
 * strictly above min_prompt_tokens, the UTC time inside [utc_start,
 * utc_end)); among those that apply, later entries win per price key; keys an
 * entry leaves out keep the base price.
 */
export function applicablePricing(pricing: Pricing, promptTokens: number, at: Date): Pricing {
  if (!pricing.overrides?.length) return pricing;
  let out: Pricing = pricing;
  for (const override of pricing.overrides) {
    if (!applies(override, promptTokens, at)) continue;
    const prices = Object.fromEntries(Object.entries(override).filter(([key]) => !CONDITIONS.has(key as keyof PricingOverride)));
    out = { ...out, ...prices };
  }
  return out;
}
