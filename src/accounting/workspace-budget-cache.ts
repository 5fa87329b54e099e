import { LRUCache } from 'lru-cache';
import type { BudgetInterval } from '../store/schema.js';
import { staleOnOutage } from '../store/stale-on-outage.js';
import { BUDGET_INTERVALS, type WorkspaceBudgets } from './workspace-budget-rules.js';

/** A budget as the cache reads it: its workspace, interval and limit, and the workspace's BYOK setting. */
export interface StoredWorkspaceBudget {
  workspace_id: string;
  reset_interval: BudgetInterval;
  limit_usd: number;
  include_byok_in_budgets: number;
}

/** An organization's workspace budgets by workspace; a workspace without any is absent. */
type OrganizationBudgets = ReadonlyMap<string, WorkspaceBudgets>;

function byWorkspace(rows: readonly StoredWorkspaceBudget[]): OrganizationBudgets {
  const found = new Map<string, WorkspaceBudgets>();
  for (const interval of BUDGET_INTERVALS)
    for (const row of rows) {
      if (row.reset_interval !== interval) continue;
      const set = found.get(row.workspace_id);
      const budget = { interval, limitUsd: row.limit_usd };
      if (set) found.set(row.workspace_id, { ...set, budgets: [...set.budgets, budget] });
      else
        found.set(row.workspace_id, { workspaceId: row.workspace_id, includeByok: row.include_byok_in_budgets === 1, budgets: [budget] });
    }
  return found;
}

/**
 * Each organization's workspace budgets, kept in memory so that a paid
 * request reads no database to learn which budgets it must fit under (none,
 * for most). Concurrent misses share one load; a change drops the
 * organization's entry on every instance through the change feed
 * (WORKSPACE_BUDGETS_TOPIC), the TTL is the backstop for a lost notice; what
 * is known is served while the database is away.
 */
export class WorkspaceBudgetCache {
  private readonly cache: LRUCache<string, OrganizationBudgets>;

  constructor(load: (organizationId: string) => Promise<readonly StoredWorkspaceBudget[]>, options: { max?: number; ttlMs?: number } = {}) {
    this.cache = new LRUCache<string, OrganizationBudgets>({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 60_000,
      ...staleOnOutage<string, OrganizationBudgets>(async (organizationId) => byWorkspace(await load(organizationId))),
    });
  }

  /** The workspace's budgets, or null when it has none. */
  async get(organizationId: string, workspaceId: string): Promise<WorkspaceBudgets | null> {
    const entry = this.cache.get(organizationId) ?? (await this.cache.fetch(organizationId));
    if (!entry) throw new Error(`workspace budgets of ${organizationId} could not be loaded`);
    return entry.get(workspaceId) ?? null;
  }

  invalidate(organizationId: string): void {
    this.cache.delete(organizationId);
  }
}

/** The change-feed topic whose notices carry an organization id whose workspace budgets (or their BYOK setting, or a workspace's deletion) changed. */
export const WORKSPACE_BUDGETS_TOPIC = 'workspace-budgets';
