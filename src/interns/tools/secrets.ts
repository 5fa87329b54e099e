/**
 * Vault secrets reach tools only: the model writes `{{secret:NAME}}` in a
 * tool call's arguments, the executor substitutes the value just before the
 * tool runs (the transcript keeps the reference), and any value a tool
 * result echoes is put back as its reference before the model sees it.
 */
const REFERENCE = /\{\{\s*secret:([A-Za-z0-9_.-]{1,128})\s*\}\}/g;

/** The secret names referenced anywhere in the (parsed) arguments' strings. */
export function referencedSecrets(value: unknown): string[] {
  const names = new Set<string>();
  visitStrings(value, (text) => {
    for (const match of text.matchAll(REFERENCE)) names.add(match[1] as string);
    return text;
  });
  return [...names];
}

/** The arguments with each reference replaced by its value (strings only, so JSON structure cannot be injected). */
export function substituteSecrets<T>(value: T, secrets: Readonly<Record<string, string>>): T {
  return visitStrings(value, (text) => text.replace(REFERENCE, (whole, name: string) => secrets[name] ?? whole)) as T;
}

/** The text with every secret value replaced by its reference (longest first, so a value inside another is not half-replaced). */
export function redactSecrets(text: string, secrets: Readonly<Record<string, string>>): string {
  const entries = Object.entries(secrets)
    .filter(([, secret]) => secret.length > 0)
    .sort(([, a], [, b]) => b.length - a.length);
  return entries.reduce((out, [name, secret]) => out.split(secret).join(`{{secret:${name}}}`), text);
}

function visitStrings(value: unknown, visit: (text: string) => string): unknown {
  if (typeof value === 'string') return visit(value);
  if (Array.isArray(value)) return value.map((item) => visitStrings(item, visit));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, visitStrings(item, visit)]));
  return value;
}
