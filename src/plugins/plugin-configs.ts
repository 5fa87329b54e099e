import type { ActivePlugins } from '../chat/run.js';
import type { PluginConfig } from '../protocol/chat.js';

const NONE: ActivePlugins = new Map();

/**
 * The plugins in force: the organization's defaults, then the request's
 * plugins on top, field by field (the request wins); a plugin whose merged
 * `enabled` is false is off for the request. Nothing is allocated when
 * neither says anything, the common case on the hot path.
 */
export function activePlugins(defaults: readonly PluginConfig[], requested: readonly PluginConfig[] | undefined): ActivePlugins {
  if (defaults.length === 0 && (requested === undefined || requested.length === 0)) return NONE;
  const merged = new Map<string, PluginConfig>();
  for (const plugin of [...defaults, ...(requested ?? [])]) merged.set(plugin.id, { ...merged.get(plugin.id), ...plugin });
  for (const [id, plugin] of merged) if (plugin.enabled === false) merged.delete(id);
  return merged;
}
