import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { GuardrailScope } from '../store/schema.js';
import type { ApplicableGuardrail, CompiledGuardrail } from './compiled-guardrail.js';

export interface AssignmentRef {
  guardrail_id: string;
  scope: GuardrailScope;
  target_id: string;
}

/** Narrowest first: the order guardrails are reported and applied in. */
const SCOPE_ORDER: readonly GuardrailScope[] = ['api-key', 'member', 'workspace', 'organization'];

/**
 * An organization's compiled guardrails and their assignments, indexed for
 * the question each request asks: which guardrails govern this key.
 */
export class OrganizationGuardrails {
  private readonly byScope = new Map<GuardrailScope, Map<string, CompiledGuardrail[]>>();
  /** No assignment at all: the common case, answered without allocating. */
  readonly empty: boolean;

  constructor(guardrails: readonly CompiledGuardrail[], assignments: readonly AssignmentRef[]) {
    const byId = new Map(guardrails.map((g) => [g.id, g]));
    for (const a of assignments) {
      const guardrail = byId.get(a.guardrail_id);
      if (!guardrail) continue;
      let targets = this.byScope.get(a.scope);
      if (!targets) this.byScope.set(a.scope, (targets = new Map()));
      targets.set(a.target_id, [...(targets.get(a.target_id) ?? []), guardrail]);
    }
    this.empty = this.byScope.size === 0;
  }

  /**
   * The guardrails of a key: assigned to the key, to the member who created
   * it, to its workspace and to the organization; all of them apply. A
   * guardrail reached through several scopes is reported under the narrowest.
   */
  forKey(key: Pick<ApiKeyRow, 'hash' | 'creator_user_id' | 'workspace_id' | 'organization_id'>): ApplicableGuardrail[] {
    if (this.empty) return [];
    const targets: Record<GuardrailScope, string | null> = {
      'api-key': key.hash,
      member: key.creator_user_id,
      workspace: key.workspace_id,
      organization: key.organization_id,
    };
    const seen = new Set<string>();
    const applicable: ApplicableGuardrail[] = [];
    for (const scope of SCOPE_ORDER) {
      const target = targets[scope];
      for (const guardrail of (target !== null ? this.byScope.get(scope)?.get(target) : undefined) ?? []) {
        if (seen.has(guardrail.id)) continue;
        seen.add(guardrail.id);
        applicable.push({ guardrail, scope });
      }
    }
    return applicable;
  }
}
