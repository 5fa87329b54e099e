import type { Endpoint } from '../catalog/types.js';
import { Errors } from '../http/errors.js';
import { GatewayError, isGatewayError } from '../protocol/gateway-error.js';
import { UpstreamError } from '../protocol/upstream.js';
import { type Attempt, endpointKey } from '../routing/plan-attempts.js';
import type { ProviderPins } from '../routing/provider-pins.js';
import { type AttemptOutcome, describeFailure } from './attempt-outcome.js';
import { recordCacheHolder } from './prompt-cache-pins.js';
import { isProviderFault, isRateLimited } from './retry-policy.js';
import type { RoutedRequest, Run } from './run.js';
import { type AttemptsResult, type RunAttemptsOptions, runAttempts } from './run-attempts.js';
import type { RunServices } from './run-services.js';
import { serviceMetadata } from './service-metadata.js';
import { runError, settleRun } from './settle-run.js';

/** The attempt loop's options shared by every flow. */
export function attemptOptions<R>(
  services: RunServices,
  run: Run<RoutedRequest>,
  signal: AbortSignal,
  tryOne: RunAttemptsOptions<Endpoint, R>['tryOne'],
): RunAttemptsOptions<Endpoint, R> {
  const { observer } = services;
  return {
    model: run.request.model ?? run.attempts[0]?.modelId ?? 'unknown',
    attempts: run.attempts,
    // Every upstream attempt of every flow passes here: the one place its metrics and span are kept.
    tryOne: observer ? (attempt) => observer.attempt(run, attempt, () => tryOne(attempt)) : tryOne,
    signal,
    sleep: services.sleep,
    now: () => services.clock().getTime(),
    budget: services.retryBudget,
    // Only the provider's faults count against its health, not a request it rightly refused, nor a BYOK key's own rate limit.
    onFailure: (attempt, error) => {
      if (!isProviderFault(error)) return;
      const rateLimited = isRateLimited(error);
      if (attempt.credential && rateLimited) return;
      services.health.recordFailure(endpointKey(attempt.modelId, attempt.endpoint.provider), {
        rateLimited,
        error: describeFailure(error),
      });
    },
  };
}

/**
 * After a served attempt: the provider is healthy again, a chat session
 * keeps its provider and the conversation's prompt cache is known to be
 * there (only chat has sessions and caches, hence the optional pins).
 */
export function noteServed(
  services: Pick<RunServices, 'health'> & { pins?: ProviderPins; cachePins?: ProviderPins },
  run: Run<RoutedRequest>,
  attempt: Attempt<Endpoint>,
): void {
  services.health.recordSuccess(endpointKey(attempt.modelId, attempt.endpoint.provider));
  // Not awaited: the answer does not wait for the pin, and a failed pin only costs stickiness.
  if (services.pins && run.request.session_id)
    void services.pins.pin(run.key.organization_id, run.request.session_id, attempt.endpoint.provider);
  if (services.cachePins && run.conversation) recordCacheHolder(services.cachePins, run.key.organization_id, run.conversation, attempt);
}

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
  // A refusal with no attempt is recorded by the routes' error hook (api/refusals), which a stream's reply, taken over
  // (hijacked) before its attempts, no longer reaches: a stream's is recorded here.
  if (outcomes.length > 0 || cancelled || streamed) {
    await settleRun(services, run, {
      status: cancelled ? 'cancelled' : 'error',
      streamed,
      outcomes,
      error: isGatewayError(error)
        ? runError(error)
        : outcomes.length > 0
          ? { code: 502, name: Errors.upstreamFailed.code, message: describeFailure(error).message }
          : runError(Errors.internal()),
    });
  }
  if (error instanceof GatewayError && run.wantsMetadata)
    return error.withServiceMetadata(serviceMetadata({ ...run.routing, attempts: outcomes }));
  return error;
}
