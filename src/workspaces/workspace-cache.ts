import { LRUCache } from 'lru-cache';
import { staleOnOutage } from '../store/stale-on-outage.js';
import type { WorkspaceDefaults } from './workspace-defaults.js';

/**
 * Each workspace's defaults by workspace id, so that a request reads no
 * database for them: concurrent misses share one load, a change notice
 * (WORKSPACES_TOPIC, a workspace id) drops the entry on every instance, the
 * TTL is the backstop for a lost notice; what is known is served while the
 * database is away.
 */
export class WorkspaceCache {
  private readonly cache: LRUCache<string, WorkspaceDefaults>;

  constructor(load: (workspaceId: string) => Promise<WorkspaceDefaults>, options: { max?: number; ttlMs?: number } = {}) {
    this.cache = new LRUCache<string, WorkspaceDefaults>({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 5 * 60_000,
      ...staleOnOutage<string, WorkspaceDefaults>((workspaceId) => load(workspaceId)),
    });
  }

  async get(workspaceId: string): Promise<WorkspaceDefaults> {
    return this.cache.get(workspaceId) ?? (await this.cache.fetch(workspaceId))!;
  }

  invalidate(workspaceId: string): void {
    this.cache.delete(workspaceId);
  }
}

/** The change-feed topic whose notices carry the id of a workspace that changed. */
export const WORKSPACES_TOPIC = 'workspaces';
