import type { Catalog, Endpoint } from '../catalog/types.js';
import type { ChatRequest } from '../protocol/chat.js';
import type { Attempt } from '../routing/plan-attempts.js';
import { conversationKey } from '../routing/prompt-cache/conversation-key.js';
import type { ProviderPins } from '../routing/provider-pins.js';

/** A model worth a cache pin: several endpoints to choose from, one of them with a cache-read price. */
function cacheChoice(catalog: Catalog, id: string): boolean {
  const endpoints = catalog.getModel(id)?.endpoints ?? [];
  return endpoints.length > 1 && endpoints.some((e) => e.pricing.input_cache_read !== undefined);
}

const pinKey = (model: string, conversation: string) => `${model}\u0000${conversation}`;

/** The conversation's cache holders, per model; nothing to look up (no Redis round trip) when no model has a choice to make. */
export async function cacheHolders(
  pins: ProviderPins,
  catalog: Catalog,
  organizationId: string,
  request: ChatRequest,
  requested: readonly string[],
): Promise<{ conversation?: string; holders?: Map<string, string> }> {
  // An explicit order or sort overrides stickiness (routing/plan-attempts.ts), so it is not looked up.
  if (request.provider?.order != null || request.provider?.sort != null) return {};
  const models = requested.filter((id) => cacheChoice(catalog, id));
  if (models.length === 0) return {};
  const conversation = conversationKey(request);
  const found = await Promise.all(models.map(async (id) => [id, await pins.get(organizationId, pinKey(id, conversation))] as const));
  return { conversation, holders: new Map(found.filter((entry): entry is readonly [string, string] => entry[1] !== undefined)) };
}

/** After a served attempt: its provider now holds the conversation's cached prefix, where the endpoint prices cache reads. */
export function recordCacheHolder(pins: ProviderPins, organizationId: string, conversation: string, attempt: Attempt<Endpoint>): void {
  const { pricing } = attempt.endpoint;
  if (pricing.input_cache_read === undefined || pricing.input_cache_read >= pricing.prompt) return;
  // Not awaited: the answer does not wait for the pin, and a failed pin only costs stickiness.
  void pins.pin(organizationId, pinKey(attempt.modelId, conversation), attempt.endpoint.provider);
}
