import { LRUCache } from 'lru-cache';
import { staleOnOutage } from '../store/stale-on-outage.js';
import type { PresetSettings } from './preset-fields.js';

/**
 * The settings of presets' designated versions by workspace and slug (each workspace has its own slugs), so that
 * a request naming one reads no database: concurrent misses share one load, a change notice (PRESETS_TOPIC,
 * `<workspace id>/<slug>`) drops the entry, the TTL is the backstop for a
 * lost notice. An unknown slug is not remembered: it is a 404, and creating
 * the preset must take effect at once. What is known is served while the
 * database is away.
 */
export class PresetCache {
  private readonly cache: LRUCache<string, PresetSettings>;

  constructor(
    load: (workspaceId: string, slug: string) => Promise<PresetSettings | undefined>,
    options: { max?: number; ttlMs?: number } = {},
  ) {
    this.cache = new LRUCache<string, PresetSettings>({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 5 * 60_000,
      ...staleOnOutage<string, PresetSettings>((id) => {
        const slash = id.indexOf('/');
        return load(id.slice(0, slash), id.slice(slash + 1));
      }),
    });
  }

  async get(workspaceId: string, slug: string): Promise<PresetSettings | undefined> {
    const id = presetCacheId(workspaceId, slug);
    return this.cache.get(id) ?? (await this.cache.fetch(id));
  }

  /** Drops one preset, named as PRESETS_TOPIC notices name it. */
  invalidate(id: string): void {
    this.cache.delete(id);
  }
}

export const presetCacheId = (workspaceId: string, slug: string): string => `${workspaceId}/${slug}`;

/** The change-feed topic whose notices carry `<workspace id>/<slug>` of a preset that changed. */
export const PRESETS_TOPIC = 'presets';
