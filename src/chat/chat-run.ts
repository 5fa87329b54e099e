import type { Kysely } from 'kysely';
import { recordGeneration } from '../accounting/record-generation.js';
import { computeCost } from '../accounting/compute-cost.js';
import type { Catalog, Endpoint } from '../catalog/types.js';
import { Errors } from '../http/errors.js';
import { hashEndUser } from '../providers/shared/hash-end-user.js';
import type { ChatAdapter, UpstreamTarget } from '../providers/types.js';
import { isProviderFault } from './retry-policy.js';
import type { EndpointHealth } from '../routing/endpoint-health.js';
import { endpointKey, planAttempts, requestedModels, type Attempt } from '../routing/plan-attempts.js';
import type { SessionPins } from '../routing/session-pins.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { Database, GenerationStatus } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import { newGenerationId } from '../util/ids.js';
import type { AttemptOutcome } from './attempt-outcome.js';
import type { RunAttemptsOptions } from './run-attempts.js';
import type { RoutingFacts } from './service-metadata.js';
import type { ChatRequest, FinishReason, Usage } from './types.js';

/** What the chat flows need beyond the request; built once in app.ts. */
export interface ChatServices {
  db: Kysely<Database>;
  clock: Clock;
  catalog: Catalog;
  adapters: Readonly<Record<string, ChatAdapter>>;
  health: EndpointHealth;
  pins: SessionPins;
  /** Key of the end-user hash: the raw `user` never leaves the gateway. */
  userHashSecret: string;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Retry-After waits: the longest single wait, and all waits of one request together. */
  retryBudget: { maxWaitMs: number; totalWaitMs: number };
  /** A stream sends keep-alive comments when the first upstream byte takes longer than this. */
  keepAliveAfterMs: number;
}

/** One chat request on its way: who asked, what, and the plan to serve it. */
export interface ChatRun {
  id: string;
  key: ApiKeyRow;
  request: ChatRequest;
  requestId: string;
  origin: string | null;
  userAgent: string | null;
  endUserId: string;
  attempts: Attempt<Endpoint>[];
  routing: Omit<RoutingFacts, 'attempts'>;
  startedAt: number;
  wantsMetadata: boolean;
}

export interface RunContext {
  requestId: string;
  origin: string | null;
  userAgent: string | null;
  wantsMetadata: boolean;
}

/** Plans the attempts of a request; an unknown model is a 404 naming it. */
export function startChatRun(services: ChatServices, key: ApiKeyRow, request: ChatRequest, context: RunContext): ChatRun {
  const now = services.clock();
  const requested = requestedModels(request.model, request.models);
  const sessionProvider = request.session_id ? services.pins.get(key.organization_id, request.session_id) : undefined;
  const stickyProvider =
    sessionProvider && requested.every((id) => services.health.isHealthy(endpointKey(id, sessionProvider))) ? sessionProvider : undefined;
  const plan = planAttempts({
    requested,
    lookup: (id) => services.catalog.getModel(id),
    stickyProvider,
    unhealthy: services.health.unhealthy(),
  });
  const unknown = plan.unknownModels[0];
  if (unknown !== undefined) throw Errors.modelNotFound(unknown);
  return {
    id: newGenerationId(now),
    key,
    request,
    ...context,
    // Without a `user`, the key stands for the end user: still an identity, never a raw value.
    endUserId: hashEndUser(services.userHashSecret, request.user ?? `key:${key.hash}`),
    attempts: plan.attempts,
    routing: {
      requested: { model: request.model, models: request.models },
      strategy: stickyProvider ? 'session' : 'fallback',
      planned: plan.attempts.map((a) => ({ model: a.modelId, provider: a.endpoint.provider })),
    },
    startedAt: now.getTime(),
  };
}

export function adapterFor(services: ChatServices, attempt: Attempt<Endpoint>): { adapter: ChatAdapter; target: UpstreamTarget } {
  const model = services.catalog.getModel(attempt.modelId);
  if (!model) throw Errors.modelNotFound(attempt.modelId);
  const target = services.catalog.targetFor(model, attempt.endpoint);
  const adapter = services.adapters[target.kind];
  if (!adapter) throw Errors.internal();
  return { adapter, target };
}

/** The attempt loop's options shared by both flows. */
export function attemptOptions<R>(
  services: ChatServices,
  run: ChatRun,
  signal: AbortSignal,
  tryOne: RunAttemptsOptions<Endpoint, R>['tryOne'],
): RunAttemptsOptions<Endpoint, R> {
  return {
    model: run.request.model ?? run.attempts[0]?.modelId ?? 'unknown',
    attempts: run.attempts,
    tryOne,
    signal,
    sleep: services.sleep,
    now: () => services.clock().getTime(),
    budget: services.retryBudget,
    // Only the provider's faults count against its health, not a request it rightly refused.
    onFailure: (attempt, error) => {
      if (isProviderFault(error)) services.health.recordFailure(endpointKey(attempt.modelId, attempt.endpoint.provider));
    },
  };
}

export interface RunEnd {
  status: GenerationStatus;
  streamed: boolean;
  attempt?: Attempt<Endpoint>;
  outcomes: AttemptOutcome[];
  usage?: Usage;
  usageEstimated?: boolean;
  finishReason?: FinishReason | null;
  nativeFinishReason?: string | null;
  serviceTier?: string | null;
  upstreamId?: string | null;
  ttftMs?: number | null;
  error?: { code: number; message: string };
}

/** After a served attempt: the session keeps its provider and the provider is healthy again. */
export function noteServed(services: ChatServices, run: ChatRun, attempt: Attempt<Endpoint>): void {
  services.health.recordSuccess(endpointKey(attempt.modelId, attempt.endpoint.provider));
  if (run.request.session_id) services.pins.pinIfAbsent(run.key.organization_id, run.request.session_id, attempt.endpoint.provider);
}

/**
 * Writes the run's ledger row and charges its key, and returns the cost.
 * Called before the response completes, so a finished generation is never
 * unrecorded.
 */
export async function settleRun(services: ChatServices, run: ChatRun, end: RunEnd): Promise<{ cost: number }> {
  const now = services.clock();
  const cost = end.attempt && end.usage ? computeCost(end.attempt.endpoint.pricing, end.usage) : { total: 0, cacheDiscount: 0 };
  await recordGeneration(
    services.db,
    {
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
      api_type: 'completions',
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
      total_cost: cost.total,
      cache_discount: cost.cacheDiscount,
      latency_ms: now.getTime() - run.startedAt,
      ttft_ms: end.ttftMs ?? null,
      generation_time_ms: end.ttftMs != null ? now.getTime() - run.startedAt - end.ttftMs : null,
      error_code: end.error?.code ?? null,
      error_message: end.error?.message ?? null,
      routing: JSON.stringify({ ...run.routing, attempts: end.outcomes, usage_estimated: end.usageEstimated ?? false }),
      origin: run.origin,
      user_agent: run.userAgent,
      created_at: new Date(run.startedAt).toISOString(),
    },
    now,
  );
  return { cost: cost.total };
}
