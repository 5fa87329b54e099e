import { LRUCache } from 'lru-cache';
import type { GuardrailScope } from '../store/schema.js';
import { staleOnOutage } from '../store/stale-on-outage.js';
import { compileGuardrail } from './compile-guardrail.js';
import { guardrailBudget } from './guardrail-budget.js';
import type { GuardrailRules } from './guardrail-rules.js';
import { OrganizationGuardrails } from './organization-guardrails.js';

/** What the cache reads of one organization: its guardrails (rules as stored JSON, budget columns) and assignments. */
export interface StoredGuardrails {
  guardrails: ({ id: string; name: string; rules: string } & Parameters<typeof guardrailBudget>[0])[];
  assignments: { guardrail_id: string; scope: GuardrailScope; target_id: string }[];
}

/**
 * Each organization's guardrails, compiled once and kept in memory, so a
 * chat request reads no database to learn which guardrails govern it.
 * Concurrent misses share one load. Any change to an organization's
 * guardrails or assignments invalidates its entry through the change feed
 * (GUARDRAILS_TOPIC); the TTL is the backstop for a lost notice. What is
 * known is served while the database is away.
 */
export class GuardrailCache {
  private readonly cache: LRUCache<string, OrganizationGuardrails>;

  constructor(load: (organizationId: string) => Promise<StoredGuardrails>, options: { max?: number; ttlMs?: number } = {}) {
    this.cache = new LRUCache<string, OrganizationGuardrails>({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 60_000,
      ...staleOnOutage<string, OrganizationGuardrails>(async (organizationId) => {
        const stored = await load(organizationId);
        const compiled = stored.guardrails.map((g) => ({
          ...compileGuardrail(g.id, g.name, JSON.parse(g.rules) as GuardrailRules),
          budget: guardrailBudget(g),
        }));
        return new OrganizationGuardrails(compiled, stored.assignments);
      }),
    });
  }

  async get(organizationId: string): Promise<OrganizationGuardrails> {
    const entry = this.cache.get(organizationId) ?? (await this.cache.fetch(organizationId));
    if (!entry) throw new Error(`guardrails of ${organizationId} could not be loaded`);
    return entry;
  }

  invalidate(organizationId: string): void {
    this.cache.delete(organizationId);
  }
}

export const GUARDRAILS_TOPIC = 'guardrails';
