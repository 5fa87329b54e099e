import type { Endpoint, Model } from '../catalog/types.js';
import { type Attempt, type CandidateReport, planAttempts } from '../routing/plan-attempts.js';
import { readProviderPreferences } from '../routing/provider-preferences.js';

export interface VideoPlan {
  /** In order: the job goes to the first; the others take it, in turn, if an upstream cannot. */
  attempts: Attempt<Endpoint>[];
  candidates: CandidateReport[];
  /** Set when the preferences left no endpoint: which one removed the last. */
  noEndpoint?: string;
}

/**
 * The endpoints a video job may go to, among those whose protocol makes
 * video: the request's `provider` preferences (only, ignore, order, sort,
 * allow_fallbacks, as the reference's image generation takes them) ordered
 * by chat's planner; without `order` or `sort`, load is spread by price per
 * second of video.
 */
export function planVideoEndpoints(
  model: Model,
  makesVideo: (endpoint: Endpoint) => boolean,
  provider: Record<string, unknown> | undefined,
  random: () => number,
): VideoPlan {
  const plan = planAttempts({
    requested: [model.id],
    lookup: () => ({ id: model.id, endpoints: model.endpoints.filter(makesVideo) }),
    preferences: readProviderPreferences(provider),
    random,
  });
  return {
    attempts: plan.attempts,
    candidates: plan.candidates,
    ...(plan.noEndpoint !== undefined ? { noEndpoint: plan.noEndpoint } : {}),
  };
}
