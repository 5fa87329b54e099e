import { computeCost } from '../accounting/compute-cost.js';
import { byokCharge } from '../byok/byok-charge.js';
import type { ModelTask } from '../catalog/model-task.js';
import type { Endpoint } from '../catalog/types.js';
import type { ChatMessage, FinishReason, Usage } from '../protocol/chat.js';
import type { ErrorCode, GatewayError } from '../protocol/gateway-error.js';
import { servedSample } from '../routing/endpoint-stats.js';
import { type Attempt, endpointKey } from '../routing/plan-attempts.js';
import type { GenerationRecord, GenerationStatus } from '../store/schema.js';
import type { AttemptOutcome } from './attempt-outcome.js';
import { type GeneratedText, generationContent } from './generation-content.js';
import type { RoutedRequest, Run } from './run.js';
import type { RunServices } from './run-services.js';

/** How a run ended: what settleRun writes to its ledger row. */
export interface RunEnd {
  status: GenerationStatus;
  streamed: boolean;
  attempt?: Attempt<Endpoint>;
  outcomes: AttemptOutcome[];
  usage?: Usage;
  /** Whether `usage` is the gateway's own count (accounting/check-usage.ts). */
  usageEstimated?: boolean;
  finishReason?: FinishReason | null;
  nativeFinishReason?: string | null;
  serviceTier?: string | null;
  upstreamId?: string | null;
  ttftMs?: number | null;
  /** The status, catalogue name and message the client was answered with. */
  error?: { code: number; name: ErrorCode; message: string };
  /** A rerank's billed search units: the endpoint's `request` price applies once per unit. */
  searchUnits?: number;
  /** The upstream calls a run made when more than one (decisions on a chat model: one per question): the `request` price applies to each. */
  calls?: number;
  /** The images an image model made: the endpoint's `image` price applies once per image. */
  images?: number;
  /** The checked tokens of the images an image model was sent to edit, at the endpoint's `image_token` price. */
  imageTokens?: number;
  /** The characters a speech model spoke: the endpoint's `character` price applies once per character. */
  characters?: number;
  /** The seconds of audio a transcription model heard: the endpoint's `audio_second` price applies once per second. */
  seconds?: number;
  /** What the model answered, kept with the row when the run stores its content (run.storedInput). */
  output?: GeneratedText;
}

/** A failed run's error as its ledger row keeps it. */
export const runError = (error: GatewayError): NonNullable<RunEnd['error']> => ({
  code: error.statusCode,
  name: error.code,
  message: error.message,
});

/** The ledger's api_type of each task (the reference's names). */
export const API_TYPES: Record<ModelTask, string> = {
  chat: 'completions',
  rerank: 'rerank',
  embeddings: 'embeddings',
  image: 'image',
  speech: 'tts',
  transcription: 'stt',
  video: 'video',
  decisions: 'decisions',
};

/**
 * Writes the run's ledger row and charges its key, and returns the cost.
 * Called before the response completes, so a finished generation is never
 * unrecorded. A run that stores its content writes it in the same commit.
 */
export async function settleRun(
  services: Pick<RunServices, 'ledger' | 'clock'> & Partial<Pick<RunServices, 'health' | 'observer' | 'byokFeeRate' | 'taskSampler'>>,
  run: Run<RoutedRequest>,
  end: RunEnd,
): Promise<{ cost: number }> {
  const now = services.clock();
  // The gateway's own measurements of the serving endpoint feed sort and preferred_* (routing/endpoint-stats.ts).
  if (end.status === 'success' && end.attempt)
    services.health?.recordServed(
      endpointKey(end.attempt.modelId, end.attempt.endpoint.provider),
      servedSample(now.getTime() - run.startedAt, end.ttftMs, end.usage?.completion_tokens),
    );
  const cost =
    end.attempt && end.usage
      ? computeCost(end.attempt.endpoint.pricing, end.usage, new Date(run.startedAt), end.searchUnits ?? end.calls ?? 1, {
          images: end.images,
          imageTokens: end.imageTokens,
          characters: end.characters,
          seconds: end.seconds,
        })
      : { total: 0, cacheDiscount: 0 };
  services.observer?.settled(run, end, cost.total);
  const billed = byokCharge(cost.total, end.attempt?.credential !== undefined, services.byokFeeRate ?? 0);
  const row: GenerationRecord = {
    id: run.id,
    organization_id: run.key.organization_id,
    workspace_id: run.key.workspace_id,
    api_key_hash: run.key.hash,
    request_id: run.requestId,
    upstream_id: end.upstreamId ?? null,
    model: end.attempt?.modelId ?? run.routing.planned[0]?.model ?? run.request.model ?? 'unknown',
    provider_name: end.attempt?.endpoint.provider ?? end.outcomes.at(-1)?.provider ?? null,
    upstream_model: end.attempt?.endpoint.upstreamModel ?? null,
    app_id: run.key.app_id,
    external_user: run.key.external_user,
    user_hash: run.endUserId,
    session_id: run.request.session_id ?? null,
    api_type: API_TYPES[run.task],
    status: end.status,
    streamed: end.streamed ? 1 : 0,
    cancelled: end.status === 'cancelled' ? 1 : 0,
    finish_reason: end.finishReason ?? null,
    native_finish_reason: end.nativeFinishReason ?? null,
    service_tier: end.serviceTier ?? null,
    tokens_prompt: end.usage?.prompt_tokens ?? 0,
    tokens_completion: end.usage?.completion_tokens ?? 0,
    tokens_cached: end.usage?.prompt_tokens_details?.cached_tokens ?? 0,
    tokens_cache_write: end.usage?.prompt_tokens_details?.cache_write_tokens ?? 0,
    tokens_reasoning: end.usage?.completion_tokens_details?.reasoning_tokens ?? 0,
    ...billed,
    cache_discount: cost.cacheDiscount,
    latency_ms: now.getTime() - run.startedAt,
    ttft_ms: end.ttftMs ?? null,
    generation_time_ms: end.ttftMs != null ? now.getTime() - run.startedAt - end.ttftMs : null,
    error_code: end.error?.code ?? null,
    error_name: end.error?.name ?? null,
    error_message: end.error?.message ?? null,
    routing: JSON.stringify({
      ...run.routing,
      attempts: end.outcomes,
      ...(end.searchUnits !== undefined ? { search_units: end.searchUnits } : {}),
      ...(end.calls !== undefined ? { calls: end.calls } : {}),
      ...(end.images !== undefined ? { images: end.images } : {}),
      ...(end.imageTokens !== undefined ? { input_image_tokens: end.imageTokens } : {}),
      ...(end.characters !== undefined ? { characters: end.characters } : {}),
      ...(end.seconds !== undefined ? { seconds: end.seconds } : {}),
    }),
    origin: run.origin,
    app_title: run.appTitle ?? null,
    user_agent: run.userAgent,
    created_at: new Date(run.startedAt).toISOString(),
    parent_generation_id: run.parentGenerationId ?? null,
    usage_estimated: end.usageEstimated ? 1 : 0,
  };
  await services.ledger.record(row, run.storedInput ? generationContent(run, run.storedInput, end.output) : undefined);
  if (run.task === 'chat' && 'messages' in run.request) services.taskSampler?.offer(run.request.messages as readonly ChatMessage[], row);
  run.recorded?.();
  // The row is committed: the hold becomes the cost (not awaited: this process's next hold already counts it).
  void run.reservation?.settle(billed.total_cost, billed.byok_cost);
  return { cost: billed.total_cost };
}
