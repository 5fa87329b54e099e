import { UpstreamError } from '../protocol/upstream.js';
import type { Attempt } from '../routing/plan-attempts.js';
import { type AttemptOutcome, describeFailure, finalError } from './attempt-outcome.js';
import { isRefusedCredential, nextStep, type RetryBudget } from './retry-policy.js';

export interface RunAttemptsOptions<E extends { provider: string }, R> {
  model: string;
  attempts: readonly Attempt<E>[];
  /** Runs one attempt; resolves once it is committed (for a stream: its first chunk is in hand). */
  tryOne: (attempt: Attempt<E>) => Promise<R>;
  signal: AbortSignal;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  now: () => number;
  budget: { maxWaitMs: number; totalWaitMs: number };
  /** Called after each failed attempt, e.g. to mark the provider unhealthy. */
  onFailure?: (attempt: Attempt<E>, error: unknown) => void;
}

export interface AttemptsResult<E, R> {
  result: R;
  attempt: Attempt<E>;
  outcomes: AttemptOutcome[];
}

/**
 * Tries the plan's attempts in order until one commits. Failures before a
 * commit move on, wait out a short Retry-After, or stop (see retry-policy);
 * when nothing commits, the error says which attempts were made.
 */
export async function runAttempts<E extends { provider: string }, R>(options: RunAttemptsOptions<E, R>): Promise<AttemptsResult<E, R>> {
  const outcomes: AttemptOutcome[] = [];
  let waited = 0;
  let last: unknown;
  for (const attempt of options.attempts) {
    let triedSame = false;
    for (;;) {
      if (options.signal.aborted) throw new UpstreamError('aborted', 'the client went away');
      const started = options.now();
      try {
        const result = await options.tryOne(attempt);
        outcomes.push({
          model: attempt.modelId,
          provider: attempt.endpoint.provider,
          status: 'success',
          latency_ms: options.now() - started,
          ...(attempt.credential ? { is_byok: true } : {}),
        });
        return { result, attempt, outcomes };
      } catch (error) {
        last = error;
        outcomes.push({
          model: attempt.modelId,
          provider: attempt.endpoint.provider,
          status: 'failed',
          error: describeFailure(error),
          latency_ms: options.now() - started,
          ...(attempt.credential ? { is_byok: true } : {}),
        });
        options.onFailure?.(attempt, error);
        const budget: RetryBudget = { maxWaitMs: options.budget.maxWaitMs, remainingMs: options.budget.totalWaitMs - waited };
        // A BYOK credential the provider refuses (401, 403) says nothing of the request: the plan's next credential may serve it.
        const step = attempt.credential && isRefusedCredential(error) ? { action: 'next' as const } : nextStep(error, budget, triedSame);
        if (step.action === 'stop')
          throw error instanceof UpstreamError && error.failure === 'aborted' ? error : finalError(options.model, outcomes, error);
        if (step.action === 'retry-same') {
          triedSame = true;
          waited += step.afterMs;
          await options.sleep(step.afterMs, options.signal);
          continue;
        }
        break;
      }
    }
  }
  throw finalError(options.model, outcomes, last);
}
