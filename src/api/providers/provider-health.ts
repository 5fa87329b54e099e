import type { Model } from '../../catalog/types.js';
import { sumTallies, UPTIME_WINDOWS, uptimePercent } from '../../routing/endpoint-uptime.js';
import { endpointKey } from '../../routing/plan-attempts.js';
import type { EndpointHealthView } from '../models/endpoints-record.js';

/**
 * `ok`: no endpoint of the provider is resting after a failure; `degraded`:
 * some are; `down`: all are; `unknown`: it has no endpoint in the catalog or
 * no attempt lately (a BYOK-only provider, an idle one).
 */
export type ProviderStatus = 'ok' | 'degraded' | 'down' | 'unknown';

/** What GET /providers adds to the reference's fields: the routing's view of a provider, over its endpoints. */
export interface ProviderHealthRecord {
  status: ProviderStatus;
  /** The catalog's endpoints (model × this provider). */
  endpoints: number;
  /** Endpoints that failed in the last UNHEALTHY_FOR_MS, which routing tries last. */
  failing_endpoints: number;
  /** Percent of this instance's attempts at the provider that were served; null without an attempt. */
  uptime_last_5m: number | null;
  uptime_last_30m: number | null;
  uptime_last_1d: number | null;
}

/** A provider's health from this instance's routing statistics (routing/endpoint-health.ts). */
export function providerHealth(provider: string, models: readonly Model[], health: EndpointHealthView | undefined): ProviderHealthRecord {
  const keys = models.flatMap((m) => m.endpoints.filter((e) => e.provider === provider).map(() => endpointKey(m.id, provider)));
  const failing = health ? keys.filter((key) => !health.isHealthy(key)).length : 0;
  const uptime = (windowMs: number) => (health ? uptimePercent(sumTallies(keys.map((key) => health.attemptsOver(key, windowMs)))) : null);
  const [last5m, last30m, last1d] = [UPTIME_WINDOWS.uptime_last_5m, UPTIME_WINDOWS.uptime_last_30m, UPTIME_WINDOWS.uptime_last_1d].map(
    uptime,
  ) as [number | null, number | null, number | null];
  const status: ProviderStatus =
    keys.length === 0 ? 'unknown' : failing === keys.length ? 'down' : failing > 0 ? 'degraded' : last1d === null ? 'unknown' : 'ok';
  return {
    status,
    endpoints: keys.length,
    failing_endpoints: failing,
    uptime_last_5m: last5m,
    uptime_last_30m: last30m,
    uptime_last_1d: last1d,
  };
}
