import { LRUCache } from 'lru-cache';
import { staleOnOutage } from '../store/stale-on-outage.js';
import type { OrganizationSettings } from './organization-settings.js';

export interface SettingsCacheOptions {
  /** Organizations kept in memory. */
  max?: number;
  /** Settings are re-read after this long even if no change notice arrived. */
  ttlMs?: number;
}

/**
 * Organization settings by organization id, so that a chat request reads no
 * database for them: concurrent misses share one load, a change notice
 * (ORGANIZATION_SETTINGS_TOPIC) drops the entry, the TTL is the backstop for
 * a lost notice; what is known is served while the database is away.
 */
export class SettingsCache {
  private readonly cache: LRUCache<string, OrganizationSettings>;

  constructor(load: (organizationId: string) => Promise<OrganizationSettings>, options: SettingsCacheOptions = {}) {
    this.cache = new LRUCache<string, OrganizationSettings>({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 5 * 60_000,
      ...staleOnOutage<string, OrganizationSettings>((organizationId) => load(organizationId)),
    });
  }

  async get(organizationId: string): Promise<OrganizationSettings> {
    return this.cache.get(organizationId) ?? (await this.cache.fetch(organizationId))!;
  }

  invalidate(organizationId: string): void {
    this.cache.delete(organizationId);
  }
}

/** The change-feed topic whose notices carry an organization id. */
export const ORGANIZATION_SETTINGS_TOPIC = 'organization_settings';
