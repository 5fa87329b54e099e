import { Errors } from '../http/errors.js';
import { BUILTIN_DETECTORS, BUILTIN_LABELS } from './builtin-detectors.js';
import type { CompiledGuardrail, ContentRule } from './compiled-guardrail.js';
import type { GuardrailRules } from './guardrail-rules.js';
import { compileLinearPattern, quotePattern } from './linear-pattern.js';

const DEFAULT_REDACTION = '[REDACTED]';

/** Letters, digits and underscore: where a keyword's edge needs a word boundary. */
const WORD_EDGE = /\w/;

/** All keywords as one case-insensitive pattern of whole words, reporting the keyword that matched. */
function keywordRule(keywords: readonly string[]): ContentRule {
  const byLowerCase = new Map(keywords.map((k) => [k.toLowerCase(), k]));
  const alternatives = keywords.map((k) => {
    const quoted = quotePattern(k);
    return `${WORD_EDGE.test(k[0] ?? '') ? '\\b' : ''}${quoted}${WORD_EDGE.test(k.at(-1) ?? '') ? '\\b' : ''}`;
  });
  const compiled = compileLinearPattern(`(?:${alternatives.join('|')})`, { caseInsensitive: true });
  if (!compiled.ok) throw Errors.invalidRequest(`blocked_keywords cannot be matched: ${compiled.reason}`);
  return {
    action: 'block',
    label: DEFAULT_REDACTION,
    pattern: compiled.pattern,
    report: (match) => byLowerCase.get(match.toLowerCase()) ?? match.toLowerCase(),
    userOnly: false,
  };
}

/**
 * Compiles a guardrail's content rules; a custom pattern RE2 cannot run is a
 * 400 naming it (the same check the create and update operations make, so a
 * stored guardrail always compiles).
 */
export function compileGuardrail(id: string, name: string, rules: GuardrailRules): CompiledGuardrail {
  const content: ContentRule[] = [];
  rules.content_filters?.forEach((filter, index) => {
    const compiled = compileLinearPattern(filter.pattern);
    if (!compiled.ok) throw Errors.unsafePattern(`content_filters[${index}].pattern`, filter.pattern, compiled.reason);
    content.push({
      action: filter.action,
      label: filter.label ?? DEFAULT_REDACTION,
      pattern: compiled.pattern,
      report: () => filter.pattern,
      userOnly: false,
    });
  });
  for (const builtin of rules.content_filter_builtins ?? []) {
    for (const detector of BUILTIN_DETECTORS[builtin.slug]) {
      content.push({
        action: builtin.action,
        label: BUILTIN_LABELS[builtin.slug],
        pattern: detector.pattern,
        ...(detector.accept ? { accept: detector.accept } : {}),
        report: () => detector.name,
        userOnly: builtin.slug === 'regex-prompt-injection' && builtin.scan_scope === 'user_only',
      });
    }
  }
  if (rules.blocked_keywords?.length) content.push(keywordRule(rules.blocked_keywords));
  return { id, name, rules, content };
}
