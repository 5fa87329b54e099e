import type { ContentRule } from './compiled-guardrail.js';
import type { ContentFilterAction } from './guardrail-rules.js';

/** One piece of request text and the role of the message it came from. */
export interface ScannedText {
  role: string;
  text: string;
}

export interface ContentScan {
  /** What matched, by action: the names `patterns` reports, each once. */
  matched: Record<ContentFilterAction, string[]>;
  /** Matches replaced by their labels. */
  redactions: number;
  /** The texts after redaction, in input order (the same strings when nothing was redacted). */
  texts: ScannedText[];
}

interface Match {
  start: number;
  end: number;
}

function matchesOf(rule: ContentRule, text: string, found: (match: string) => void): Match[] {
  const matcher = rule.pattern.matcher(text);
  const matches: Match[] = [];
  while (matcher.find()) {
    const value = matcher.group() ?? '';
    // An empty match finds nothing: a pattern that matches everywhere must not block everything.
    if (value === '' || (rule.accept && !rule.accept(value))) continue;
    found(value);
    matches.push({ start: matcher.start(), end: matcher.end() });
  }
  return matches;
}

function redact(text: string, matches: readonly Match[], label: string): string {
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += text.slice(at, m.start) + label;
    at = m.end;
  }
  return out + text.slice(at);
}

/**
 * Runs content rules over request texts, in rule order: a redaction is seen
 * by the rules after it. Linear in the text for every rule (RE2JS).
 */
export function scanContent(rules: readonly ContentRule[], input: readonly ScannedText[]): ContentScan {
  const matched: Record<ContentFilterAction, Set<string>> = { block: new Set(), redact: new Set(), flag: new Set() };
  let redactions = 0;
  const texts = input.map((t) => ({ ...t }));
  for (const rule of rules) {
    for (const item of texts) {
      if (rule.userOnly && item.role !== 'user') continue;
      const matches = matchesOf(rule, item.text, (value) => matched[rule.action].add(rule.report(value)));
      if (rule.action === 'redact' && matches.length > 0) {
        item.text = redact(item.text, matches, rule.label);
        redactions += matches.length;
      }
    }
  }
  return { matched: { block: [...matched.block], redact: [...matched.redact], flag: [...matched.flag] }, redactions, texts };
}
