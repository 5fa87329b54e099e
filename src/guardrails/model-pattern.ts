/**
 * Whether a model id matches a guardrail's model entry: the id itself, or
 * `vendor/*` for every model of a vendor (the wildcard the auto-router's
 * model patterns use). Case-insensitive, as model slugs are.
 */
export function matchesModelPattern(modelId: string, pattern: string): boolean {
  const id = modelId.toLowerCase();
  const p = pattern.toLowerCase();
  return p.endsWith('/*') ? id.startsWith(p.slice(0, -1)) : id === p;
}
