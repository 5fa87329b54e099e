import type { Kysely } from 'kysely';
import type { LedgerWriter } from '../accounting/ledger-writer.js';
import { computeCost } from '../accounting/compute-cost.js';
import { modelTask, type ModelTask } from '../catalog/model-task.js';
import type { ServiceTier } from '../protocol/routing-vocabulary.js';
import type { Catalog, Endpoint } from '../catalog/types.js';
import { Errors } from '../http/errors.js';
import type { Pipeline } from '../plugins/pipeline.js';
import type { ActivePlugins } from '../plugins/plugin-configs.js';
import type { ChatAdapter } from '../protocol/adapters.js';
import type { UpstreamTarget } from '../protocol/upstream.js';
import { isProviderFault } from './retry-policy.js';
import type { SettingsCache } from '../organization-settings/settings-cache.js';
import type { PresetCache } from '../presets/preset-cache.js';
import type { EndpointHealth } from '../routing/endpoint-health.js';
import { servedSample } from '../routing/endpoint-stats.js';
import { endpointKey, planAttempts, type Attempt, type CandidateReport } from '../routing/plan-attempts.js';
import { routableModels } from '../routing/routers/routable-model.js';
import { routeModels, type RouterDecision } from '../routing/routers/route-models.js';
import { readProviderPreferences } from '../routing/provider-preferences.js';
import { requiredTier, usedParameters } from '../routing/request-parameters.js';
import type { ProviderPins } from '../routing/provider-pins.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { Database, GenerationStatus } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import { newGenerationId } from '../util/ids.js';
import type { Reservation, SpendReservations } from '../accounting/reservations.js';
import type { AttemptOutcome } from './attempt-outcome.js';
import { cacheHolders, recordCacheHolder } from './prompt-cache-pins.js';
import type { RunAttemptsOptions } from './run-attempts.js';
import type { RouterFacts, RoutingFacts } from './service-metadata.js';
import type { ChatRequest, FinishReason, Usage } from '../protocol/chat.js';
import type { SearchResult } from '../protocol/search-engine.js';

/** What every flow (chat, rerank) needs beyond the request; built once in app.ts. */
export interface RunServices {
  db: Kysely<Database>;
  /** Writes ledger rows (group commit); settling a run waits for its row. */
  ledger: LedgerWriter;
  clock: Clock;
  catalog: Catalog;
  health: EndpointHealth;
  /** The keyed hash sent upstream instead of the end user's `user` (providers/shared/hash-end-user.ts). */
  hashEndUser: (user: string) => string;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Retry-After waits: the longest single wait, and all waits of one request together. */
  retryBudget: { maxWaitMs: number; totalWaitMs: number };
  /** Draws of the price-weighted load balancing; Math.random unless a test fixes it. */
  random?: () => number;
  /** Guardrails, plugins and server tools around the attempts. */
  pipeline: Pipeline;
  /** Holds the most a request can cost against its key's limit and guardrail budgets before any upstream call. */
  spend: SpendReservations;
}

/** What the chat flows need beyond the request; built once in app.ts. */
export interface ChatServices extends RunServices {
  adapters: Readonly<Record<string, ChatAdapter>>;
  /** Session stickiness (session_id). */
  pins: ProviderPins;
  /** Prompt-cache stickiness: the provider that last served a conversation, per model. */
  cachePins: ProviderPins;
  /** A stream sends keep-alive comments when the first upstream byte takes longer than this. */
  keepAliveAfterMs: number;
  /** Each organization's defaults for provider preferences and plugins, cached (no database read per request). */
  organizationSettings: SettingsCache;
  /** Presets a request may name, cached the same way. */
  presets: PresetCache;
}

/** The request fields a run reads whatever its API: what routes it and whom it serves. */
export interface RoutedRequest {
  model?: string;
  models?: readonly string[];
  session_id?: string;
  user?: string;
  /** Provider preferences (reference ProviderPreferences), already validated. */
  provider?: Record<string, unknown> | null;
}

/** One request on its way: who asked, what, and the plan to serve it. */
export interface Run<R extends RoutedRequest> {
  id: string;
  key: ApiKeyRow;
  request: R;
  task: ModelTask;
  requestId: string;
  origin: string | null;
  userAgent: string | null;
  endUserId: string;
  attempts: Attempt<Endpoint>[];
  routing: Omit<RoutingFacts, 'attempts'>;
  startedAt: number;
  wantsMetadata: boolean;
  /** The conversation's prompt-cache key, when a model of the plan can stick to a cache holder. */
  conversation?: string;
  /** Set on an inner call (a fusion panelist or analyst): the generation it was made for. */
  parentGenerationId?: string;
  /** What the run holds of its key's limits until settleRun charges its cost (see reserve-chat-run.ts, rerank's route). */
  reservation?: Reservation;
}

/**
 * A chat run; `plugins` are the plugins in force once the pipeline has
 * prepared it, `citations` the web plugin's search results once it searched
 * (`webSearches` the searches it made, billed at the endpoint's web_search
 * price), `innerCost` what inner calls made before the attempts (fusion's
 * panel and analyst) cost: their own rows charged it, the response's
 * usage.cost includes it.
 */
export type ChatRun = Run<ChatRequest> & {
  plugins?: ActivePlugins;
  citations?: readonly SearchResult[];
  webSearches?: number;
  innerCost?: number;
};

export interface RunContext {
  requestId: string;
  origin: string | null;
  userAgent: string | null;
  wantsMetadata: boolean;
}

/**
 * Plans a chat request's attempts: a router model (service/auto…) is first
 * resolved to the models its router chooses, then the session's provider
 * goes first while it is healthy, and the provider holding the
 * conversation's prompt cache while reading it there is cheaper.
 */
export async function startChatRun(services: ChatServices, key: ApiKeyRow, request: ChatRequest, context: RunContext): Promise<ChatRun> {
  const routed = routeModels(request, {
    models: routableModels(services.catalog),
    traffic: (model, provider) => services.health.traffic(endpointKey(model, provider)),
    random: services.random ?? Math.random,
  });
  const requested = routed.requested;
  const sessionProvider = request.session_id ? await services.pins.get(key.organization_id, request.session_id) : undefined;
  const stickyProvider =
    sessionProvider && requested.every((id) => services.health.isHealthy(endpointKey(id, sessionProvider))) ? sessionProvider : undefined;
  const { conversation, holders } = await cacheHolders(services.cachePins, services.catalog, key.organization_id, request, requested);
  const run = startRun(services, key, request, context, {
    task: 'chat',
    requested,
    stickyProvider,
    ...(holders ? { cachedProviders: holders } : {}),
    parameters: usedParameters({ ...request }),
    serviceTier: requiredTier(request.service_tier),
    ...(routed.decision ? { router: routerFacts(routed.decision) } : {}),
    ...(routed.skipped.length > 0 ? { skippedRouters: routed.skipped } : {}),
  });
  return conversation ? { ...run, conversation } : run;
}

const routerFacts = ({ router, plugin, choice }: RouterDecision): RouterFacts => ({
  model: router,
  plugin,
  summary: choice.summary,
  params: choice.params,
  models: choice.verdicts,
});

/** Where each task is served, for the error that names the right endpoint. */
const TASK_ENDPOINTS: Record<ModelTask, string> = { chat: 'POST /chat/completions', rerank: 'POST /rerank', video: 'POST /videos' };

/**
 * Plans the attempts of a request for models of one task. An unknown model
 * is a 404 naming it; a known model of another task (a rerank model sent to
 * chat) is a 400 naming the endpoint that serves it; provider preferences
 * that leave no endpoint are a 404 naming the one that removed the last
 * candidate (the reference's "No endpoints found matching ...").
 */
export function startRun<R extends RoutedRequest>(
  services: RunServices,
  key: ApiKeyRow,
  request: R,
  context: RunContext,
  {
    task,
    requested,
    stickyProvider,
    cachedProviders,
    parameters,
    serviceTier,
    router,
    skippedRouters,
  }: {
    task: ModelTask;
    requested: readonly string[];
    stickyProvider?: string | undefined;
    cachedProviders?: ReadonlyMap<string, string>;
    parameters?: readonly string[];
    serviceTier?: ServiceTier | undefined;
    router?: RouterFacts;
    skippedRouters?: RoutingFacts['skippedRouters'];
  },
): Run<R> {
  const now = services.clock();
  const plan = planAttempts({
    requested,
    lookup: (id) => services.catalog.getModel(id),
    preferences: readProviderPreferences(request.provider),
    parameters: parameters ?? [],
    serviceTier,
    stickyProvider,
    ...(cachedProviders ? { cachedProviders } : {}),
    unhealthy: services.health.unhealthy(),
    figures: (endpoint) => services.health.figures(endpoint),
    random: services.random ?? Math.random,
  });
  const unknown = plan.unknownModels[0];
  if (unknown !== undefined) throw Errors.modelNotFound(unknown);
  for (const id of requested) {
    const other = modelTask(services.catalog.getModel(id)!);
    if (other !== task) throw Errors.invalidRequest(`Model ${id} is a ${other} model: send it to ${TASK_ENDPOINTS[other]}`);
  }
  if (plan.noEndpoint !== undefined) throw Errors.noEndpointMatchesPreferences({ candidates: plan.candidates }, plan.noEndpoint);
  return {
    id: newGenerationId(now),
    key,
    request,
    task,
    ...context,
    // Without a `user`, the key stands for the end user: still an identity, never a raw value.
    endUserId: services.hashEndUser(request.user ?? `key:${key.hash}`),
    attempts: plan.attempts,
    routing: {
      requested: { model: request.model, models: request.models },
      strategy: plan.strategy,
      planned: plan.attempts.map((a) => ({ model: a.modelId, provider: a.endpoint.provider })),
      candidates: router ? withRouterReasons(plan.candidates, router) : plan.candidates,
      ...(router ? { router } : {}),
      ...(skippedRouters ? { skippedRouters } : {}),
    },
    startedAt: now.getTime(),
  };
}

/** Each endpoint of a model the router chose says, first, why the router chose the model. */
function withRouterReasons(candidates: CandidateReport[], router: RouterFacts): CandidateReport[] {
  const why = new Map(router.models.filter((v) => v.decision === 'chosen').map((v) => [v.model, v.reason]));
  return candidates.map((c) => (why.has(c.model) ? { ...c, reason: `${router.plugin}: ${why.get(c.model)}; ${c.reason}` } : c));
}

export function adapterFor<A>(
  services: { catalog: Catalog; adapters: Readonly<Record<string, A>> },
  attempt: Attempt<Endpoint>,
): { adapter: A; target: UpstreamTarget } {
  const model = services.catalog.getModel(attempt.modelId);
  if (!model) throw Errors.modelNotFound(attempt.modelId);
  const target = services.catalog.targetFor(model, attempt.endpoint);
  const adapter = services.adapters[target.kind];
  if (!adapter) throw Errors.internal();
  return { adapter, target };
}

/** The attempt loop's options shared by every flow. */
export function attemptOptions<R>(
  services: RunServices,
  run: Run<RoutedRequest>,
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
  /** Whether `usage` is the gateway's own count (accounting/check-usage.ts). */
  usageEstimated?: boolean;
  finishReason?: FinishReason | null;
  nativeFinishReason?: string | null;
  serviceTier?: string | null;
  upstreamId?: string | null;
  ttftMs?: number | null;
  error?: { code: number; message: string };
  /** A rerank's billed search units: the endpoint's `request` price applies once per unit. */
  searchUnits?: number;
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
  if (services.pins && run.request.session_id) void services.pins.pin(run.key.organization_id, run.request.session_id, attempt.endpoint.provider);
  if (services.cachePins && run.conversation) recordCacheHolder(services.cachePins, run.key.organization_id, run.conversation, attempt);
}

/** The ledger's api_type of each task (the reference's names). */
const API_TYPES: Record<ModelTask, string> = { chat: 'completions', rerank: 'rerank', video: 'video' };

/**
 * Writes the run's ledger row and charges its key, and returns the cost.
 * Called before the response completes, so a finished generation is never
 * unrecorded.
 */
export async function settleRun(
  services: Pick<RunServices, 'ledger' | 'clock'> & Partial<Pick<RunServices, 'health'>>,
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
    end.attempt && end.usage ? computeCost(end.attempt.endpoint.pricing, end.usage, new Date(run.startedAt), end.searchUnits ?? 1) : { total: 0, cacheDiscount: 0 };
  await services.ledger.record({
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
    total_cost: cost.total,
    cache_discount: cost.cacheDiscount,
    latency_ms: now.getTime() - run.startedAt,
    ttft_ms: end.ttftMs ?? null,
    generation_time_ms: end.ttftMs != null ? now.getTime() - run.startedAt - end.ttftMs : null,
    error_code: end.error?.code ?? null,
    error_message: end.error?.message ?? null,
    routing: JSON.stringify({
      ...run.routing,
      attempts: end.outcomes,
      ...(end.searchUnits !== undefined ? { search_units: end.searchUnits } : {}),
    }),
    origin: run.origin,
    user_agent: run.userAgent,
    created_at: new Date(run.startedAt).toISOString(),
    parent_generation_id: run.parentGenerationId ?? null,
    usage_estimated: end.usageEstimated ? 1 : 0,
  });
  // The row is committed: the hold becomes the cost (not awaited: this process's next hold already counts it).
  void run.reservation?.settle(cost.total);
  return { cost: cost.total };
}
