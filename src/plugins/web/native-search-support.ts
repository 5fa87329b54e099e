import type { Catalog, Endpoint } from '../../catalog/types.js';
import type { Attempt } from '../../routing/plan-attempts.js';

/** Kinds whose API searches by itself for any model that lists nothing: Anthropic's web_search tool, Gemini's Google Search. */
const SEARCHING_KINDS = new Set(['anthropic', 'gemini']);

/**
 * Whether every planned endpoint can search by itself, so that native search
 * works whichever serves: it lists `web_search_options` among its supported
 * parameters (OpenAI's search models, the built-in Claude and Gemini
 * models), or it is Anthropic or Gemini and lists nothing.
 */
export function nativeSearchOf(catalog: Catalog, attempts: readonly Attempt<Endpoint>[]): boolean {
  return (
    attempts.length > 0 &&
    attempts.every(({ endpoint }) => {
      const listed = endpoint.supportedParameters;
      if (listed) return listed.includes('web_search_options');
      return SEARCHING_KINDS.has(catalog.providers.get(endpoint.provider)?.kind ?? '');
    })
  );
}
