import type { Pricing } from '../../catalog/types.js';

const net = (price: number, pricing: Pick<Pricing, 'discount'>) => price * (1 - (pricing.discount ?? 0));

/**
 * Whether reading a conversation's cached prefix at one endpoint costs less
 * than sending it uncached to the cheapest endpoint of the model (itself
 * included): the reference keeps a conversation on its provider only while
 * the cache read is the cheaper way. Prices are per token, after discounts.
 */
export function cacheAdvantage(
  cached: Pick<Pricing, 'input_cache_read' | 'discount'>,
  all: readonly Pick<Pricing, 'prompt' | 'discount'>[],
) {
  const read = cached.input_cache_read === undefined ? undefined : net(cached.input_cache_read, cached);
  const cold = Math.min(...all.map((p) => net(p.prompt, p)));
  return { cheaper: read !== undefined && read < cold, read, cold };
}
