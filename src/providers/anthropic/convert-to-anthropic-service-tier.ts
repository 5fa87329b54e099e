import { offersTier, type ServiceTier } from '../../protocol/routing-vocabulary.js';

export type AnthropicServiceTier = 'auto' | 'standard_only';

/**
 * Anthropic's `service_tier` for a canonical tier the endpoint offers.
 * Anthropic takes `auto` (Priority Tier capacity when the organization has
 * some, else standard) and `standard_only`: `priority` and `auto` ask for the
 * former, `default` for the latter. Flex and scale have no counterpart, nor
 * does a tier the endpoint does not list: nothing is sent, and the response's
 * `usage.service_tier` says what Anthropic used.
 */
export function convertToAnthropicServiceTier(
  tier: ServiceTier | 'fast' | null | undefined,
  offered: readonly ServiceTier[] | undefined,
): AnthropicServiceTier | undefined {
  const canonical = tier === 'fast' ? 'priority' : tier;
  if (canonical == null || !offersTier(offered, canonical)) return undefined;
  if (canonical === 'priority' || canonical === 'auto') return 'auto';
  return canonical === 'default' ? 'standard_only' : undefined;
}
