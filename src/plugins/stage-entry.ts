/** What one plugin stage did to a request, as `service_metadata.pipeline` and the ledger row's routing JSON show it. */
export interface StageEntry {
  type: 'plugin' | 'context_compression' | 'server_tools';
  name: string;
  summary: string;
  data: Record<string, unknown>;
}

export type PluginConfig = { id: string; enabled?: boolean } & Record<string, unknown>;

/** The request's plugin of this id when it is in force (present, and `enabled` not false). */
export function activePlugin(plugins: readonly PluginConfig[] | undefined, id: string): PluginConfig | undefined {
  const plugin = plugins?.find((p) => p.id === id);
  return plugin && plugin.enabled !== false ? plugin : undefined;
}
