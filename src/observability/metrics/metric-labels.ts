import { isGatewayError } from '../../protocol/gateway-error.js';
import { UpstreamError } from '../../protocol/upstream.js';

/**
 * Label values are bounded, so that a series never stands for one request or one caller: routes are
 * Fastify's patterns, models and providers come from the catalog, outcomes and statuses from small sets.
 */

/** The route of a request that matched none (a 404): one series for all of them, never the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The status of a request whose client left before its answer's headers were sent (nginx's "client closed request"). */
export const CLIENT_CLOSED = 499;

/** An attempt's outcome: success, or why it failed, in the words of the ledger's attempt outcomes. */
export function attemptOutcome(error: unknown): string {
  if (error instanceof UpstreamError) {
    if (error.failure !== 'status') return error.failure;
    const status = error.details.status ?? 0;
    if (status === 429) return 'http_429';
    return status >= 500 ? 'http_5xx' : 'http_4xx';
  }
  // Raised inside the gateway during the attempt (a server-tool step its reservation cannot cover).
  return isGatewayError(error) ? 'gateway' : 'internal';
}
