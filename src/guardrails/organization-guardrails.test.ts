import { describe, expect, it } from 'vitest';
import { compileGuardrail } from './compile-guardrail.js';
import { applyRuleInput } from './guardrail-rules.js';
import { OrganizationGuardrails } from './organization-guardrails.js';

const g = (id: string) => compileGuardrail(id, id, applyRuleInput(undefined, {}));
const key = { hash: 'k1', creator_user_id: 'u1', workspace_id: 'w1', organization_id: 'o1' };

describe('OrganizationGuardrails.forKey', () => {
  it('finds guardrails through the key, its creator, its workspace and the organization, narrowest first', () => {
    const org = new OrganizationGuardrails(
      [g('a'), g('b'), g('c'), g('d'), g('e')],
      [
        { guardrail_id: 'd', scope: 'organization', target_id: 'o1' },
        { guardrail_id: 'c', scope: 'workspace', target_id: 'w1' },
        { guardrail_id: 'b', scope: 'member', target_id: 'u1' },
        { guardrail_id: 'a', scope: 'api-key', target_id: 'k1' },
        { guardrail_id: 'e', scope: 'api-key', target_id: 'other-key' },
      ],
    );
    expect(org.forKey(key).map((x) => [x.guardrail.id, x.scope])).toEqual([
      ['a', 'api-key'],
      ['b', 'member'],
      ['c', 'workspace'],
      ['d', 'organization'],
    ]);
  });

  it('reports a guardrail reached twice once, under the narrower scope', () => {
    const org = new OrganizationGuardrails(
      [g('a')],
      [
        { guardrail_id: 'a', scope: 'organization', target_id: 'o1' },
        { guardrail_id: 'a', scope: 'api-key', target_id: 'k1' },
      ],
    );
    expect(org.forKey(key).map((x) => x.scope)).toEqual(['api-key']);
  });

  it('is empty without assignments, and a key with no creator skips the member scope', () => {
    expect(new OrganizationGuardrails([g('a')], []).empty).toBe(true);
    const org = new OrganizationGuardrails([g('a')], [{ guardrail_id: 'a', scope: 'member', target_id: 'u1' }]);
    expect(org.forKey({ ...key, creator_user_id: null })).toEqual([]);
  });
});
