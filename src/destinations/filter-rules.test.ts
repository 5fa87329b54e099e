import { describe, expect, it } from 'vitest';
import { filterRulesProblem, passesFilter } from './filter-rules.js';

describe('filter rules', () => {
  const facts = { model: 'openai/gpt-4o', provider: 'openai', total_cost: 0.02, total_tokens: 120 };

  it('passes everything without rules, and joins a group’s rules by its logic, every group required', () => {
    expect(passesFilter(null, facts)).toBe(true);
    expect(passesFilter({ enabled: false, groups: [{ rules: [{ field: 'model', operator: 'equals', value: 'x' }] }] }, facts)).toBe(true);
    const and = {
      groups: [
        {
          rules: [
            { field: 'model', operator: 'starts_with', value: 'openai/' },
            { field: 'total_cost', operator: 'gt', value: 0.01 },
          ],
        },
      ],
    };
    expect(passesFilter(and, facts)).toBe(true);
    expect(passesFilter(and, { ...facts, total_cost: 0.001 })).toBe(false);
    const or = {
      groups: [
        {
          logic: 'or' as const,
          rules: [
            { field: 'provider', operator: 'equals', value: 'anthropic' },
            { field: 'total_tokens', operator: 'gte', value: 100 },
          ],
        },
      ],
    };
    expect(passesFilter(or, facts)).toBe(true);
    expect(passesFilter({ groups: [{ rules: [{ field: 'session_id', operator: 'exists' }] }] }, facts)).toBe(false);
    expect(passesFilter({ groups: [{ rules: [{ field: 'model', operator: 'regex', value: 'gpt-4o$' }] }] }, facts)).toBe(true);
  });

  it('refuses unknown fields and operators, a missing value and a regex RE2 cannot run, naming the rule', () => {
    expect(filterRulesProblem({ groups: [{ rules: [{ field: 'model', operator: 'like', value: 'x' }] }] })).toMatch(
      /^filter_rules\.groups\[0\]\.rules\[0\]\.operator must be one of/,
    );
    expect(filterRulesProblem({ groups: [{ rules: [{ field: 'model', operator: 'equals' }] }] })).toBe(
      'filter_rules.groups[0].rules[0].value is required for operator equals',
    );
    expect(filterRulesProblem({ groups: [{ rules: [{ field: 'model', operator: 'regex', value: '(a)\\1' }] }] })).toMatch(
      /is not a regular expression/,
    );
  });
});
