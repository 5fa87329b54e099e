import type { ServiceTier } from '../protocol/routing-vocabulary.js';

/** Request fields named as the catalog's supported_parameters name them. */
const PARAMETERS = [
  'temperature',
  'top_p',
  'top_k',
  'top_a',
  'min_p',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'seed',
  'stop',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'reasoning',
  'reasoning_effort',
  'verbosity',
  'max_tokens',
  'max_completion_tokens',
] as const;

/** The two names of the output limit: an endpoint that lists either takes it (the adapters translate). */
const MAX_TOKENS = ['max_tokens', 'max_completion_tokens'];

/** The parameters a request sets (null means "the upstream's default": not set). */
export function usedParameters(request: Record<string, unknown>): string[] {
  const used = new Set<string>();
  for (const name of PARAMETERS) {
    const value = request[name];
    if (value === undefined || value === null) continue;
    used.add(MAX_TOKENS.includes(name) ? 'max_tokens' : name);
  }
  const format = request.response_format as { type?: string } | undefined;
  if (format?.type === 'json_schema') used.add('structured_outputs');
  return [...used];
}

/** Whether an endpoint accepts a parameter; an endpoint that lists none accepts all. */
export function supportsParameter(supported: readonly string[] | undefined, parameter: string): boolean {
  if (supported === undefined) return true;
  return parameter === 'max_tokens' ? MAX_TOKENS.some((n) => supported.includes(n)) : supported.includes(parameter);
}

/** What require_parameters checks an endpoint against. */
export interface RequestNeeds {
  /** The parameters the request sets (usedParameters). */
  parameters: readonly string[];
  /** A tier the request asks for that not every endpoint offers (requiredTier). */
  serviceTier?: ServiceTier | undefined;
}

/**
 * The request's tier when it asks for more than standard processing: `auto`
 * and `default` are what any endpoint does without the field, so they are
 * no requirement (and are still sent where the endpoint lists them).
 */
export const requiredTier = (tier: ServiceTier | 'fast' | null | undefined): ServiceTier | undefined =>
  tier === 'fast' ? 'priority' : tier === 'flex' || tier === 'priority' || tier === 'scale' ? tier : undefined;
