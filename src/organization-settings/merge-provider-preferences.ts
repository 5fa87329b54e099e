import type { ProviderDocument } from './organization-settings.js';

/** Lists the reference merges with the account-wide ones ("merged with your account-wide … settings"). */
const MERGED_LISTS = ['only', 'ignore'] as const;

const isSet = (value: unknown) => value !== undefined && value !== null;

/**
 * The provider preferences a request runs with: the organization's defaults
 * under the request's own. `only` and `ignore` are merged (the union, as the
 * reference merges them with the account-wide lists); `max_price` is merged
 * price by price; every other field the request sets replaces the default,
 * and a field it leaves out or sets to null keeps the default.
 */
export function mergeProviderPreferences(
  defaults: ProviderDocument | null,
  request: ProviderDocument | null | undefined,
): ProviderDocument | undefined {
  if (!defaults) return request ?? undefined;
  if (!request) return defaults;
  const merged: ProviderDocument = { ...defaults };
  for (const [field, value] of Object.entries(request)) if (isSet(value)) merged[field] = value;
  for (const field of MERGED_LISTS) {
    const [ours, theirs] = [defaults[field], request[field]];
    if (Array.isArray(ours) && Array.isArray(theirs))
      merged[field] = [...new Set([...ours, ...theirs].map((slug) => String(slug).toLowerCase()))];
  }
  const [ourPrices, theirPrices] = [defaults.max_price, request.max_price];
  if (isSet(ourPrices) && isSet(theirPrices)) merged.max_price = { ...(ourPrices as object), ...(theirPrices as object) };
  return merged;
}
