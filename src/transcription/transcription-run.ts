import { computeCost } from '../accounting/compute-cost.js';
import type { CostCeiling } from '../accounting/reservation-ceiling.js';
import type { Endpoint } from '../catalog/types.js';
import { adapterFor } from '../chat/adapter-for.js';
import type { Run, RunContext } from '../chat/run.js';
import type { AttemptsResult } from '../chat/run-attempts.js';
import type { RunServices } from '../chat/run-services.js';
import { serveRun } from '../chat/serve-run.js';
import { settleRun } from '../chat/settle-run.js';
import { startRun } from '../chat/start-run.js';
import { Errors } from '../http/errors.js';
import type { TranscriptionAdapter } from '../protocol/adapters.js';
import type { TranscriptionRequest, UpstreamTranscription } from '../protocol/transcription.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { type RenderedTranscription, renderTranscription } from './render-transcription.js';
import { billableSeconds, fitTranscriptionAttempts } from './transcription-endpoints.js';
import { checkTranscriptionUsage, maxAudioTokens, statedUsage } from './transcription-usage.js';
import { wavDuration } from './wav-duration.js';

/** What the transcription flow needs beyond the request; built once in app.ts. */
export interface TranscriptionServices extends RunServices {
  adapters: Readonly<Record<string, TranscriptionAdapter>>;
}

export type TranscriptionRun = Run<TranscriptionRequest>;

/**
 * Plans a transcription: the model's endpoints as chat plans them, less
 * those that do not answer the format asked for or take audio as long as
 * the file's header says it is. A model of another type is a 400 naming its
 * endpoint; one with no endpoint left, a 400 naming the field and the rule,
 * before any upstream call.
 */
export function startTranscriptionRun(
  services: TranscriptionServices,
  key: ApiKeyRow,
  request: TranscriptionRequest,
  context: RunContext,
): TranscriptionRun {
  const run = startRun(services, key, request, context, { task: 'transcription', requested: [request.model] });
  const needs = { format: request.response_format, seconds: wavDuration(request.file.bytes) };
  const { attempts, refusal } = fitTranscriptionAttempts(run.attempts, request.model, needs);
  if (refusal !== undefined) throw Errors.invalidRequest(refusal);
  return {
    ...run,
    attempts,
    routing: { ...run.routing, planned: attempts.map((a) => ({ model: a.modelId, provider: a.endpoint.provider })) },
  };
}

/**
 * The most a transcription can cost, at the dearest endpoint: the longest
 * audio its file can hold and the endpoint's model takes (billableSeconds)
 * at the `audio_second` price, as
 * many tokens in and out as that audio can be billed at the token prices,
 * and the `request` price.
 */
export function transcriptionRunCeiling(run: TranscriptionRun): CostCeiling {
  const at = new Date(run.startedAt);
  const cost = (endpoint: Endpoint) => {
    const seconds = billableSeconds(endpoint, run.request.file.bytes.length);
    const tokens = maxAudioTokens(seconds);
    const usage = { prompt_tokens: tokens, completion_tokens: tokens, total_tokens: 2 * tokens };
    return computeCost(endpoint.pricing, usage, at, 1, { seconds }).total;
  };
  return { usd: Math.max(0, ...run.attempts.map((a) => cost(a.endpoint))) };
}

/** A served transcription: the answer in the client's format and the cost charged. */
export interface ServedTranscription extends RenderedTranscription {
  cost: number;
}

/**
 * A transcription: try the plan as chat does (fallbacks, Retry-After,
 * health), bill the checked duration and tokens at the serving endpoint's
 * prices, record the row, then render the client's format.
 */
export function completeTranscription(
  services: TranscriptionServices,
  run: TranscriptionRun,
  signal: AbortSignal,
): Promise<ServedTranscription> {
  return serveRun(
    services,
    run,
    signal,
    async (attempt) => {
      const { adapter, target } = adapterFor(services, attempt);
      return adapter.transcribe(run.request, target, { signal, endUserId: run.endUserId });
    },
    (served) => settleTranscription(services, run, served),
  );
}

/** A whole transcript served: its checked usage billed and recorded, then rendered in the client's format. */
export async function settleTranscription(
  services: TranscriptionServices,
  run: TranscriptionRun,
  { result, attempt, outcomes }: AttemptsResult<Endpoint, UpstreamTranscription>,
): Promise<ServedTranscription> {
  const billed = checkTranscriptionUsage(result, billableSeconds(attempt.endpoint, run.request.file.bytes.length));
  const { cost } = await settleRun(services, run, {
    status: 'success',
    streamed: false,
    attempt,
    outcomes,
    usage: billed.usage,
    usageEstimated: billed.estimated,
    seconds: billed.seconds,
  });
  return { ...renderTranscription(run.request.response_format, result, billed.seconds, statedUsage(billed, cost)), cost };
}
