import type { Endpoint } from '../catalog/types.js';
import { GatewayError, isGatewayError } from '../protocol/gateway-error.js';
import { UpstreamError } from '../protocol/upstream.js';
import type { ProviderPins } from '../routing/provider-pins.js';
import { describeFailure, type AttemptOutcome } from './attempt-outcome.js';
import { attemptOptions, noteServed, settleRun, type RoutedRequest, type Run, type RunServices } from './chat-run.js';
import { runAttempts, type AttemptsResult, type RunAttemptsOptions } from './run-attempts.js';
import { serviceMetadata } from './service-metadata.js';

/**
 * A run answered in one piece (a non-streaming chat, a rerank): tries the
 * plan, marks the serving provider healthy, and lets `finish` settle the
 * ledger and shape the answer. When nothing is served, the failure is
 * recorded and the client's error thrown.
 */
export async function serveRun<R, T>(
  services: RunServices & { pins?: ProviderPins; cachePins?: ProviderPins },
  run: Run<RoutedRequest>,
  signal: AbortSignal,
  tryOne: RunAttemptsOptions<Endpoint, R>['tryOne'],
  finish: (served: AttemptsResult<Endpoint, R>) => Promise<T>,
): Promise<T> {
  let outcomes: AttemptOutcome[] = [];
  try {
    const served = await runAttempts(attemptOptions(services, run, signal, tryOne));
    outcomes = served.outcomes;
    noteServed(services, run, served.attempt);
    return await finish(served);
  } catch (error) {
    throw await failRun(services, run, error, outcomes, false);
  }
}

/** Records a run that produced nothing billable and returns the error for the client. */
export async function failRun(
  services: Pick<RunServices, 'ledger' | 'clock'>,
  run: Run<RoutedRequest>,
  error: unknown,
  known: AttemptOutcome[],
  streamed: boolean,
): Promise<unknown> {
  const outcomes = isGatewayError(error) && Array.isArray(error.metadata?.attempts) ? (error.metadata.attempts as AttemptOutcome[]) : known;
  const cancelled = error instanceof UpstreamError && error.failure === 'aborted';
  if (outcomes.length > 0 || cancelled) {
    await settleRun(services, run, {
      status: cancelled ? 'cancelled' : 'error',
      streamed,
      outcomes,
      error: isGatewayError(error) ? { code: error.statusCode, message: error.message } : { code: 502, message: describeFailure(error).message },
    });
  }
  if (error instanceof GatewayError && run.wantsMetadata) return error.withServiceMetadata(serviceMetadata({ ...run.routing, attempts: outcomes }));
  return error;
}
