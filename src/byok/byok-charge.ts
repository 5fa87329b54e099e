import type { GenerationRecord } from '../store/schema.js';

/**
 * What a generation at `price` (the endpoint's) charges and records: on a
 * BYOK credential the provider bills the organization, so the charge is the
 * operator's fee (`feeRate` of the price) and the price is BYOK usage
 * (byok_cost, counted in byok_usage); otherwise the price is the charge.
 */
export function byokCharge(
  price: number,
  byok: boolean,
  feeRate: number,
): Required<Pick<GenerationRecord, 'total_cost' | 'is_byok' | 'byok_cost'>> {
  return byok ? { total_cost: price * feeRate, is_byok: 1, byok_cost: price } : { total_cost: price, is_byok: 0, byok_cost: 0 };
}
