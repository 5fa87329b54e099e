import type { Pricing, PricingOverride } from '../../catalog/types.js';

// Prices are decimal strings in the reference ("0.00003"); a plain number
// would print 3e-5 and lose precision in some clients.
const decimal = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 15, useGrouping: false });

/** Keys that stay numbers in the reference: a fraction and override conditions, not prices. */
const NOT_PRICES = new Set(['discount', 'min_prompt_tokens', 'utc_start', 'utc_end']);

export type PricingRecord = Record<string, string | number | Record<string, string | number>[]>;

function pricesAsStrings(values: Omit<Pricing, 'overrides'> | PricingOverride): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(values).flatMap(([key, value]: [string, number | undefined]) =>
      value === undefined ? [] : [[key, NOT_PRICES.has(key) ? value : decimal.format(value)]],
    ),
  );
}

/** The reference document's PublicPricing. */
// Video prices by size are not a key of the reference's pricing object: /videos/models lists them as pricing_skus.
export function toPricingRecord({ overrides, video_second_by_size: _bySize, ...prices }: Pricing): PricingRecord {
  return { ...pricesAsStrings(prices), ...(overrides ? { overrides: overrides.map(pricesAsStrings) } : {}) };
}
