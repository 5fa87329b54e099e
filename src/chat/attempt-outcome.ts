import { Errors } from '../http/errors.js';
import { type GatewayError, isGatewayError } from '../protocol/gateway-error.js';
import { UpstreamError } from '../protocol/upstream.js';

/** One attempt of a plan, as reported in error metadata, service_metadata and the ledger. */
export interface AttemptOutcome {
  model: string;
  provider: string;
  status: 'success' | 'failed';
  /** HTTP status of the upstream, or the failure kind when there was none. */
  error?: { status?: number; failure: string; message: string; provider_code?: string };
  latency_ms: number;
  /** Set when the attempt went out on a BYOK credential. */
  is_byok?: true;
}

export function describeFailure(error: unknown): NonNullable<AttemptOutcome['error']> {
  if (error instanceof UpstreamError) {
    return {
      failure: error.failure,
      message: error.message,
      ...(error.details.status !== undefined ? { status: error.details.status } : {}),
      ...(error.details.providerCode !== undefined ? { provider_code: error.details.providerCode } : {}),
    };
  }
  // Raised inside the gateway (its own answer, or a fault): never the upstream's doing.
  return { failure: 'internal', message: isGatewayError(error) ? error.message : 'unexpected error' };
}

/**
 * The error the client gets when every attempt failed, from the last failure
 * (spec 7.2): a request error passes through with the upstream's status; a
 * provider that never answered in time is 524, one that answered 408/504 is
 * 408; 429 and 529 keep their meaning; anything else from the provider is 502.
 * A failure raised inside the gateway is its own: its GatewayError as it is,
 * any other fault a 500, never a provider's 502; a process out of file
 * descriptors is 503.
 */
export function finalError(model: string, attempts: AttemptOutcome[], last: unknown): GatewayError {
  const metadata = {
    attempts,
    ...(last instanceof UpstreamError ? { provider_name: attempts.at(-1)?.provider, raw: last.details.body ?? last.message } : {}),
  };
  if (attempts.length === 0) return Errors.noEndpointAvailable(metadata, model);
  if (isGatewayError(last)) return last;
  if (!(last instanceof UpstreamError)) return Object.assign(Errors.internal(), { cause: last });
  const provider = attempts.at(-1)?.provider ?? 'unknown';
  switch (last.failure) {
    case 'local':
      return Errors.gatewayOutOfResources(metadata, last.message);
    case 'timeout':
      return Errors.upstreamEdgeTimeout(metadata, provider);
    case 'connection':
    case 'malformed':
    case 'aborted':
      return Errors.upstreamFailed(metadata, provider, last.message);
    case 'status': {
      const status = last.details.status ?? 502;
      if (status === 429) return Errors.upstreamRateLimited(metadata, provider);
      if (status === 529) return Errors.upstreamOverloaded(metadata, provider);
      if (status === 408 || status === 504) return Errors.upstreamTimeout(metadata, last.message);
      if (status === 503 && attempts.every((a) => a.error?.status === 503)) return Errors.noEndpointAvailable(metadata, model);
      if (status >= 400 && status < 500) return Errors.upstreamRefused(status, metadata, provider, last.message);
      return Errors.upstreamFailed(metadata, provider, last.message);
    }
  }
}
