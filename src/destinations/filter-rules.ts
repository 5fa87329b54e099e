import { compileLinearPattern } from '../guardrails/linear-pattern.js';

/** The reference's ObservabilityFilterRulesConfig. */
export interface FilterRules {
  enabled?: boolean;
  groups: { logic?: 'and' | 'or'; rules: FilterRule[] }[];
}
export interface FilterRule {
  field: string;
  operator: string;
  value?: string | number;
}

export const FILTER_FIELDS = [
  'model',
  'provider',
  'session_id',
  'user_id',
  'api_key_name',
  'finish_reason',
  'input',
  'output',
  'total_cost',
  'total_tokens',
  'prompt_tokens',
  'completion_tokens',
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
const OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'regex',
  'starts_with',
  'ends_with',
  'gt',
  'lt',
  'gte',
  'lte',
  'exists',
  'not_exists',
];

/** What a generation offers the rules: absent fields are undefined. */
export type FilterFacts = Partial<Record<FilterField, string | number>>;

/** Why the rules cannot be kept (naming the rule), or undefined: unknown fields and operators, a regex RE2 refuses, a missing value. */
export function filterRulesProblem(rules: FilterRules): string | undefined {
  for (const [g, group] of rules.groups.entries())
    for (const [r, rule] of group.rules.entries()) {
      const at = `filter_rules.groups[${g}].rules[${r}]`;
      if (!(FILTER_FIELDS as readonly string[]).includes(rule.field)) return `${at}.field must be one of ${FILTER_FIELDS.join(', ')}`;
      if (!OPERATORS.includes(rule.operator)) return `${at}.operator must be one of ${OPERATORS.join(', ')}`;
      if (rule.operator === 'exists' || rule.operator === 'not_exists') continue;
      if (rule.value === undefined) return `${at}.value is required for operator ${rule.operator}`;
      if (rule.operator === 'regex') {
        const compiled = compileLinearPattern(String(rule.value));
        if (!compiled.ok) return `${at}.value is not a regular expression this gateway runs: ${compiled.reason}`;
      }
    }
  return undefined;
}

/**
 * Whether a generation passes the rules: every group must pass (a group's
 * rules joined by its logic, `and` by default). No rules, disabled rules or
 * no groups pass everything. Regexes run in linear time (RE2).
 */
export function passesFilter(rules: FilterRules | null, facts: FilterFacts): boolean {
  if (!rules || rules.enabled === false) return true;
  return rules.groups.every((group) =>
    group.logic === 'or' ? group.rules.some((rule) => ruleHolds(rule, facts)) : group.rules.every((rule) => ruleHolds(rule, facts)),
  );
}

function ruleHolds(rule: FilterRule, facts: FilterFacts): boolean {
  const actual = facts[rule.field as FilterField];
  if (rule.operator === 'exists') return actual !== undefined && actual !== '';
  if (rule.operator === 'not_exists') return actual === undefined || actual === '';
  if (actual === undefined) return rule.operator === 'not_equals' || rule.operator === 'not_contains';
  const expected = rule.value ?? '';
  const text = String(actual);
  switch (rule.operator) {
    case 'equals':
      return text === String(expected);
    case 'not_equals':
      return text !== String(expected);
    case 'contains':
      return text.includes(String(expected));
    case 'not_contains':
      return !text.includes(String(expected));
    case 'starts_with':
      return text.startsWith(String(expected));
    case 'ends_with':
      return text.endsWith(String(expected));
    case 'regex': {
      const compiled = compileLinearPattern(String(expected));
      return compiled.ok && compiled.pattern.matcher(text).find();
    }
    case 'gt':
      return Number(actual) > Number(expected);
    case 'lt':
      return Number(actual) < Number(expected);
    case 'gte':
      return Number(actual) >= Number(expected);
    case 'lte':
      return Number(actual) <= Number(expected);
    default:
      return false;
  }
}
