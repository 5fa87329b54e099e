import { GatewayError, isGatewayError } from '../http/errors.js';
import { UpstreamError } from '../providers/types.js';
import { describeFailure, type AttemptOutcome } from './attempt-outcome.js';
import { adapterFor, attemptOptions, noteServed, settleRun, type ChatRun, type ChatServices } from './chat-run.js';
import { runAttempts } from './run-attempts.js';
import { serviceMetadata } from './service-metadata.js';
import type { ChatCompletion } from './types.js';

/**
 * A non-streaming chat: try the plan, charge the key, answer with the
 * gateway's id, the model and provider that served, and the cost.
 */
export async function completeChat(services: ChatServices, run: ChatRun, signal: AbortSignal): Promise<ChatCompletion & Record<string, unknown>> {
  let outcomes: AttemptOutcome[] = [];
  try {
    const served = await runAttempts(
      attemptOptions(services, run, signal, (attempt) => {
        const { adapter, target } = adapterFor(services, attempt);
        return adapter.complete(run.request, target, { signal, endUserId: run.endUserId });
      }),
    );
    outcomes = served.outcomes;
    noteServed(services, run, served.attempt);
    const completion = served.result;
    const choice = completion.choices[0];
    const { cost } = await settleRun(services, run, {
      status: 'success',
      streamed: false,
      attempt: served.attempt,
      outcomes,
      ...(completion.usage ? { usage: completion.usage } : {}),
      finishReason: choice?.finish_reason ?? null,
      nativeFinishReason: choice?.native_finish_reason ?? null,
      serviceTier: completion.service_tier ?? null,
      upstreamId: completion.id,
    });
    return {
      ...completion,
      id: run.id,
      model: served.attempt.modelId,
      provider: served.attempt.endpoint.provider,
      system_fingerprint: completion.system_fingerprint ?? null,
      usage: { ...(completion.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }), cost },
      ...(run.wantsMetadata ? { service_metadata: serviceMetadata({ ...run.routing, attempts: outcomes }) } : {}),
    };
  } catch (error) {
    throw await failRun(services, run, error, outcomes, false);
  }
}

/** Records a run that produced nothing billable and returns the error for the client. */
export async function failRun(
  services: ChatServices,
  run: ChatRun,
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
