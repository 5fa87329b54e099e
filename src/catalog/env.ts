import { normalizeBaseUrl } from './base-url.js';
import { CatalogError } from './catalog-error.js';

/** The first of the variables set to something other than blanks. */
export function envValue(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** A base URL from the environment, checked here so that a typo fails at start, not at the first request. */
export function envBaseUrl(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  const found = envValue(env, names);
  if (!found) return undefined;
  if (!/^https?:\/\//i.test(found.value) || !URL.canParse(found.value)) {
    throw new CatalogError(`${found.name} must be an http(s) URL such as http://127.0.0.1:11434/v1 (got "${found.value}")`);
  }
  return normalizeBaseUrl(found.value);
}
