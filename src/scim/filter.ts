/**
 * The part of SCIM's filter grammar (RFC 7644 §3.4.2.2) that provisioning clients send: equality
 * comparisons joined by `and`, as Okta's `userName eq "a@b.c"` and Microsoft Entra's
 * `displayName eq "Sales"` or `externalId eq "…" and userName eq "…"`. Attribute names are
 * case-insensitive; values are JSON literals (strings, true, false, null, numbers).
 */
export type FilterValue = string | number | boolean | null;

export interface Comparison {
  /** The attribute path as written, e.g. `userName` or `emails.value`. */
  attribute: string;
  value: FilterValue;
}

export type FilterResult = { ok: true; comparisons: Comparison[] } | { ok: false; reason: string };

const ATTRIBUTE = /^[A-Za-z][\w$-]*(?:\.[A-Za-z][\w$-]*)?/;
const LITERAL = /^(?:"(?:[^"\\]|\\.)*"|true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/;
/** Longer filters are not what a provisioning client sends. */
export const MAX_FILTER_LENGTH = 1024;

export function parseFilter(text: string): FilterResult {
  if (text.length > MAX_FILTER_LENGTH) return { ok: false, reason: `the filter is longer than ${MAX_FILTER_LENGTH} characters` };
  const comparisons: Comparison[] = [];
  let rest = text.trim();
  for (;;) {
    const attribute = ATTRIBUTE.exec(rest)?.[0];
    if (!attribute) return { ok: false, reason: `expected an attribute name at "${excerpt(rest)}"` };
    rest = rest.slice(attribute.length);
    const operator = /^\s+(\S+)\s+/.exec(rest);
    if (!operator) return { ok: false, reason: `expected "${attribute} eq <value>"` };
    if (operator[1]?.toLowerCase() !== 'eq')
      return { ok: false, reason: `the operator "${operator[1]}" is not supported; only eq and and are` };
    rest = rest.slice(operator[0].length);
    const literal = LITERAL.exec(rest)?.[0];
    if (!literal) return { ok: false, reason: `expected a value (a quoted string, true, false, null or a number) at "${excerpt(rest)}"` };
    comparisons.push({ attribute, value: JSON.parse(literal) as FilterValue });
    rest = rest.slice(literal.length);
    if (rest.trim() === '') return { ok: true, comparisons };
    const joiner = /^\s+and\s+/i.exec(rest);
    if (!joiner) return { ok: false, reason: `expected "and" or the end of the filter at "${excerpt(rest.trim())}"` };
    rest = rest.slice(joiner[0].length);
  }
}

const excerpt = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);
