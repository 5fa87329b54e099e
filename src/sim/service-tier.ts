/** The `service_tier` values OpenAI's Chat Completions API takes. */
export const OPENAI_SERVICE_TIERS = ['auto', 'default', 'flex', 'priority', 'scale'] as const;

/**
 * The tier OpenAI reports having used: the one asked for, except that `auto`
 * (or none) runs on the default tier, as it does for a project without Scale
 * Tier credits; the simulator always has capacity for the tier asked.
 */
export const servedTier = (asked: string | null | undefined): string =>
  asked === 'flex' || asked === 'priority' || asked === 'scale' ? asked : 'default';
