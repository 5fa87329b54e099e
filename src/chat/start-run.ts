import { withKeyCredentials } from '../byok/credential-attempts.js';
import { unknownModel } from '../catalog/closest-model.js';
import { type ModelTask, modelTask } from '../catalog/model-task.js';
import { Errors } from '../http/errors.js';
import type { ChatRequest } from '../protocol/chat.js';
import type { ServiceTier } from '../protocol/routing-vocabulary.js';
import { type CandidateReport, endpointKey, planAttempts } from '../routing/plan-attempts.js';
import { readProviderPreferences } from '../routing/provider-preferences.js';
import { requiredTier, usedParameters } from '../routing/request-parameters.js';
import { routableModels } from '../routing/routers/routable-model.js';
import { type RouterDecision, routeModels } from '../routing/routers/route-models.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { newGenerationId } from '../util/ids.js';
import { cacheHolders } from './prompt-cache-pins.js';
import type { ChatRun, RoutedRequest, Run, RunContext } from './run.js';
import { observedStep } from './run-observer.js';
import type { ChatServices, RunServices } from './run-services.js';
import type { RouterFacts, RoutingFacts } from './service-metadata.js';

/**
 * Plans a chat request's attempts: a router model (service/auto…) is first
 * resolved to the models its router chooses, then the session's provider
 * goes first while it is healthy, and the provider holding the
 * conversation's prompt cache while reading it there is cheaper.
 */
export function startChatRun(services: ChatServices, key: ApiKeyRow, request: ChatRequest, context: RunContext): Promise<ChatRun> {
  return observedStep(services.observer, 'routing', () => planChatRun(services, key, request, context));
}

async function planChatRun(services: ChatServices, key: ApiKeyRow, request: ChatRequest, context: RunContext): Promise<ChatRun> {
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
  const run = planRun(services, key, request, context, {
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
const TASK_ENDPOINTS: Record<ModelTask, string> = {
  chat: 'POST /chat/completions',
  rerank: 'POST /rerank',
  embeddings: 'POST /embeddings',
  image: 'POST /images',
  speech: 'POST /audio/speech',
  transcription: 'POST /audio/transcriptions',
  video: 'POST /videos',
  decisions: 'POST /api/alpha/decisions',
};

/** The tasks of the models that serve a task, where not only its own: a chat model serves decisions through the gateway. */
const SERVED_BY: Partial<Record<ModelTask, readonly ModelTask[]>> = { decisions: ['decisions', 'chat'] };

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
  plan: RunPlanning,
): Run<R> {
  return observedStep(services.observer, 'routing', () => planRun(services, key, request, context, plan));
}

/** What a flow asks of its plan: the task, the models requested, and what steers the order of their endpoints. */
interface RunPlanning {
  task: ModelTask;
  requested: readonly string[];
  stickyProvider?: string | undefined;
  cachedProviders?: ReadonlyMap<string, string>;
  parameters?: readonly string[];
  serviceTier?: ServiceTier | undefined;
  router?: RouterFacts;
  skippedRouters?: RoutingFacts['skippedRouters'];
}

function planRun<R extends RoutedRequest>(
  services: RunServices,
  key: ApiKeyRow,
  request: R,
  context: RunContext,
  { task, requested, stickyProvider, cachedProviders, parameters, serviceTier, router, skippedRouters }: RunPlanning,
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
  if (unknown !== undefined) throw unknownModel(services.catalog, unknown);
  for (const id of requested) {
    const other = modelTask(services.catalog.getModel(id)!);
    if (!(SERVED_BY[task] ?? [task]).includes(other))
      throw Errors.invalidRequest(
        `Model ${id} is ${/^[aeiou]/.test(other) ? 'an' : 'a'} ${other} model: send it to ${TASK_ENDPOINTS[other]}`,
      );
  }
  if (plan.noEndpoint !== undefined) throw Errors.noEndpointMatchesPreferences({ candidates: plan.candidates }, plan.noEndpoint);
  const attempts = withKeyCredentials(services.byok, key, plan.attempts);
  return {
    id: newGenerationId(now),
    key,
    request,
    task,
    ...context,
    // Without a `user`, the key stands for the end user: still an identity, never a raw value.
    endUserId: services.hashEndUser(request.user ?? `key:${key.hash}`),
    attempts,
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

/** The run with its plan narrowed to `attempts` (those of its endpoints that can serve what it asks), as its routing records it. */
export function narrowPlan<R extends RoutedRequest>(run: Run<R>, attempts: Run<R>['attempts']): Run<R> {
  return {
    ...run,
    attempts,
    routing: { ...run.routing, planned: attempts.map((a) => ({ model: a.modelId, provider: a.endpoint.provider })) },
  };
}
