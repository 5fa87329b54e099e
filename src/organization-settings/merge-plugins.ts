import type { PluginSettings } from './organization-settings.js';

/**
 * The plugins a request runs with: its own, each over the organization's
 * default of the same id (the request's fields win, `enabled: false` turns a
 * default off), then the defaults it does not name.
 */
export function mergePlugins(
  defaults: readonly PluginSettings[] | null,
  request: readonly PluginSettings[] | undefined,
): PluginSettings[] | undefined {
  if (!defaults || defaults.length === 0) return request ? [...request] : undefined;
  const own = request ?? [];
  const named = new Set(own.map((plugin) => plugin.id));
  const merged = own.map((plugin) => {
    const fallback = defaults.find((d) => d.id === plugin.id);
    return fallback ? { ...fallback, ...plugin } : plugin;
  });
  return [...merged, ...defaults.filter((d) => !named.has(d.id))];
}
