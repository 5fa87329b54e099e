import type { ContainerPricing } from './container-settings.js';

/**
 * What a run costs: the session fee when it is the request's first in its
 * container, and the per-second price for each second it ran, started
 * seconds counted whole (so the most it can cost is that of its time limit).
 */
export function containerRunCost(pricing: ContainerPricing, run: { firstInSession: boolean; durationMs: number }): number {
  const seconds = Math.ceil(Math.max(0, run.durationMs) / 1000);
  return (run.firstInSession ? pricing.perSession : 0) + pricing.perSecond * seconds;
}
