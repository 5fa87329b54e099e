/**
 * Model patterns of allowed_models / excluded_models (spec 2.2 rule 1): a
 * pattern ending in `*` matches every model id that starts with what comes
 * before it (`anthropic/*` is every Anthropic model, `*` every model); any
 * other pattern matches one id. Ids compare case-insensitively.
 */
export interface ModelPatterns {
  /** The first pattern that matches the id, if any. */
  match(id: string): string | undefined;
}

export function compileModelPatterns(patterns: readonly string[]): ModelPatterns {
  const exact = new Map<string, string>();
  const prefixes: [prefix: string, pattern: string][] = [];
  for (const pattern of patterns) {
    const lower = pattern.toLowerCase();
    if (lower.endsWith('*')) prefixes.push([lower.slice(0, -1), pattern]);
    else if (!exact.has(lower)) exact.set(lower, pattern);
  }
  return {
    match(id) {
      const lower = id.toLowerCase();
      return exact.get(lower) ?? prefixes.find(([prefix]) => lower.startsWith(prefix))?.[1];
    },
  };
}
