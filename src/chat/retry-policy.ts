import { isGatewayError } from '../protocol/gateway-error.js';
import { UpstreamError } from '../protocol/upstream.js';

export type NextStep =
  /** Try the same endpoint again after waiting. */
  | { action: 'retry-same'; afterMs: number }
  /** Move on to the next attempt of the plan. */
  | { action: 'next' }
  /** The request itself is at fault: return this error, retry nothing. */
  | { action: 'stop' };

export interface RetryBudget {
  /** The longest Retry-After the gateway waits out in one go. */
  maxWaitMs: number;
  /** Time still available for waiting in this request. */
  remainingMs: number;
}

const RETRYABLE_STATUS = (status: number) => status === 408 || status === 429 || status >= 500;

/** The provider refused the credential (401, 403): another credential for the same provider may be accepted. */
export const isRefusedCredential = (error: unknown): boolean =>
  error instanceof UpstreamError && error.failure === 'status' && (error.details.status === 401 || error.details.status === 403);

/** The provider's 429: for a BYOK credential, that key's own limit, not the endpoint's health. */
export const isRateLimited = (error: unknown): boolean =>
  error instanceof UpstreamError && error.failure === 'status' && error.details.status === 429;

/** A failure that says something about the provider's health (not the request's fault, not ours). */
export function isProviderFault(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  if (error.failure === 'aborted' || error.failure === 'local') return false;
  return error.failure !== 'status' || RETRYABLE_STATUS(error.details.status ?? 502);
}

/**
 * What to do after an attempt failed before any byte reached the client:
 * connection failures, timeouts, 408, 429 and 5xx move on (or wait out a
 * short Retry-After on the same endpoint); other 4xx come from the request
 * itself and are returned as they are; malformed answers move on. The
 * gateway's own answer (a GatewayError raised while trying) and a process
 * out of descriptors stop: another endpoint would not change them. Any other
 * fault of the gateway's moves on: another adapter may not have it.
 */
export function nextStep(error: unknown, budget: RetryBudget, triedSameBefore: boolean): NextStep {
  if (isGatewayError(error)) return { action: 'stop' };
  if (!(error instanceof UpstreamError)) return { action: 'next' };
  switch (error.failure) {
    case 'aborted':
    case 'local':
      return { action: 'stop' };
    case 'connection':
    case 'timeout':
    case 'malformed':
      return { action: 'next' };
    case 'status': {
      const status = error.details.status ?? 502;
      if (!RETRYABLE_STATUS(status)) return { action: 'stop' };
      const wait = error.details.retryAfterMs;
      if (!triedSameBefore && wait !== undefined && wait <= budget.maxWaitMs && wait <= budget.remainingMs) {
        return { action: 'retry-same', afterMs: wait };
      }
      return { action: 'next' };
    }
  }
}
