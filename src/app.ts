import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { LedgerOutbox } from './accounting/ledger-outbox.js';
import { storeLedgerWriter } from './accounting/ledger-writes.js';
import type { LedgerExtra } from './accounting/record-generation.js';
import { type SpendSettings, spendGuard } from './accounting/spend-guard.js';
import { usageDayFolder } from './accounting/usage-day-folds.js';
import { WORKSPACE_BUDGETS_TOPIC, WorkspaceBudgetCache } from './accounting/workspace-budget-cache.js';
import { KeyCache } from './accounts/key-cache.js';
import type { KeyRateLimiter } from './accounts/key-rate-limiter.js';
import { activityRoutes } from './api/activity/routes.js';
import { analyticsRoutes } from './api/analytics/routes.js';
import { audioRoutes } from './api/audio/routes.js';
import { transcriptionRoutes } from './api/audio/transcription-routes.js';
import { authRoutes } from './api/auth/routes.js';
import { benchmarksRoutes } from './api/benchmarks/routes.js';
import { byokRoutes } from './api/byok/routes.js';
import { chatRoutes } from './api/chat/routes.js';
import { classificationsRoutes } from './api/classifications/routes.js';
import { serveConsole } from './api/console/serve-console.js';
import { consoleSessionKey } from './api/console/session-auth.js';
import { consoleSessionRoutes } from './api/console/session-routes.js';
import { signInLimiter } from './api/console/sign-in-limiter.js';
import { containersRoutes } from './api/containers/routes.js';
import { creditsRoutes } from './api/credits/routes.js';
import { datasetsRoutes } from './api/datasets/routes.js';
import { decisionsRoutes } from './api/decisions/routes.js';
import { destinationsRoutes } from './api/destinations/routes.js';
import { embeddingsRoutes } from './api/embeddings/routes.js';
import { filesRoutes } from './api/files/routes.js';
import { generationContentRoutes } from './api/generation/content-routes.js';
import { generationListRoutes } from './api/generation/list-routes.js';
import { generationRoutes } from './api/generation/routes.js';
import { guardrailAssignmentRoutes } from './api/guardrails/assignment-routes.js';
import { guardrailsRoutes } from './api/guardrails/routes.js';
import { installHealth } from './api/health/install-health.js';
import type { Lifecycle } from './api/health/lifecycle.js';
import { imagesRoutes } from './api/images/routes.js';
import { type InternOptions, internServices } from './api/interns/build-intern-services.js';
import { internsRoutes } from './api/interns/routes.js';
import { keysRoutes } from './api/keys/routes.js';
import { messagesRoutes } from './api/messages/routes.js';
import { endpointsOfKey } from './api/models/key-endpoint-filter.js';
import { modelsRoutes } from './api/models/routes.js';
import { installOpenApi } from './api/openapi/install-openapi.js';
import { organizationRoutes } from './api/organization/routes.js';
import { organizationSettingsRoutes } from './api/organization/settings-routes.js';
import { presetsRoutes } from './api/presets/routes.js';
import { providersRoutes } from './api/providers/routes.js';
import { recordRefusals } from './api/refusals/record-refusals.js';
import { rerankRoutes } from './api/rerank/routes.js';
import { responsesRoutes } from './api/responses/routes.js';
import { scimManagementRoutes } from './api/scim/management-routes.js';
import { scimServiceRoutes } from './api/scim/service-routes.js';
import { internSecretReader, vaultRoutes } from './api/vault/routes.js';
import { videoRoutes } from './api/videos/routes.js';
import { workspaceBudgetRoutes } from './api/workspaces/budget-routes.js';
import { workspaceMemberRoutes } from './api/workspaces/member-routes.js';
import { workspacesRoutes } from './api/workspaces/routes.js';
import { BYOK_TOPIC, CredentialCache } from './byok/credential-cache.js';
import { envelope, type MasterKeys } from './byok/envelope.js';
import { assertServable } from './catalog/assert-servable.js';
import { servesChat } from './catalog/model-task.js';
import type { Catalog } from './catalog/types.js';
import type { ChatServices } from './chat/run-services.js';
import { classificationPass, classificationTask } from './classifications/classification-pass.js';
import { SAMPLER_DEFAULTS, type SamplerSettings, TaskSampler } from './classifications/task-sampler.js';
import type { PluginSettings } from './config/plugin-settings.js';
import { CONTAINER_DEFAULTS, type ContainerSettings } from './containers/container-settings.js';
import { Containers } from './containers/containers.js';
import { Sandbox } from './containers/sandbox/run-in-sandbox.js';
import { CREDITS_TOPIC, CreditsCache } from './credits/credits-cache.js';
import { sessionCostFolder } from './datasets/session-cost-folds.js';
import { DESTINATIONS_TOPIC, DestinationCache } from './destinations/destination-cache.js';
import { DestinationSender, SENDER_DEFAULTS, type SenderOptions } from './destinations/destination-sender.js';
import { FILE_DEFAULTS } from './files/file-settings.js';
import type { FilesService } from './files/files-service.js';
import { fileReader } from './files/read-file-for-model.js';
import { databaseStorage } from './files/storage/database-storage.js';
import { GUARDRAILS_TOPIC, GuardrailCache } from './guardrails/guardrail-cache.js';
import { authenticator } from './http/authenticate.js';
import { clientErrorHandler, frameworkErrorHandler } from './http/client-errors.js';
import { type ClientLimits, DEFAULT_CLIENT_LIMITS, requestTimeoutOptions } from './http/client-limits.js';
import { installErrorEnvelope } from './http/error-envelope.js';
import { installJsonBodyParser } from './http/json-body.js';
import { Shutdown } from './http/shutdown.js';
import { schemaErrorFormatter, validatorCompiler } from './http/validation.js';
import { createInternRuntime } from './interns/runtime/intern-runtime-service.js';
import type { InternRuntimeTuning } from './interns/runtime/runtime-tuning.js';
import { publicAddressPolicy } from './net/address-policy.js';
import type { Resolve } from './net/guarded-lookup.js';
import { createSafeFetcher } from './net/safe-fetch.js';
import { Observability } from './observability/observability.js';
import { toOrganizationSettings } from './organization-settings/organization-settings.js';
import { ORGANIZATION_SETTINGS_TOPIC, SettingsCache } from './organization-settings/settings-cache.js';
import { codeInterpreterServerTool } from './plugins/code-interpreter/code-interpreter-tool.js';
import { fusionServerTool } from './plugins/fusion/fusion-tool.js';
import type { ModerationProvider } from './plugins/moderation-stage.js';
import { createPipeline } from './plugins/pipeline.js';
import { createPluginServices } from './plugins/plugin-services.js';
import { type ServerTool, ServerToolRegistry } from './plugins/server-tools/server-tool.js';
import { webSearchServerTool } from './plugins/web/web-search-tool.js';
import { webFetchServerTool } from './plugins/web-fetch/web-fetch-tool.js';
import { PRESETS_TOPIC, PresetCache } from './presets/preset-cache.js';
import {
  CHAT_ADAPTERS,
  DECISIONS_ADAPTERS,
  EMBEDDINGS_ADAPTERS,
  IMAGES_ADAPTERS,
  KINDS_BY_TASK,
  RERANK_ADAPTERS,
  SPEECH_ADAPTERS,
  TRANSCRIPTION_ADAPTERS,
  VIDEO_ADAPTERS,
} from './providers/registry.js';
import { endUserHasher } from './providers/shared/hash-end-user.js';
import { DEFAULT_UPSTREAM_BODY_LIMITS, setUpstreamBodyLimits, type UpstreamBodyLimits } from './providers/shared/upstream-body-limits.js';
import { EndpointHealth } from './routing/endpoint-health.js';
import { CACHE_PINS, memoryPins, type ProviderPins, SESSION_PINS } from './routing/provider-pins.js';
import { API_KEY_TOPIC, type Services } from './services.js';
import type { ChangeFeed } from './store/change-feed.js';
import type { Store } from './store/database.js';
import { isDatabaseUnavailable } from './store/database-unavailable.js';
import { findApiKeyByHash } from './store/repositories/api-keys.js';
import { organizationsWithoutByokFallback, usableByokCredentials } from './store/repositories/byok-credentials.js';
import { totalCredits } from './store/repositories/credit-grants.js';
import { settingOrCreate } from './store/repositories/gateway-settings.js';
import { loadOrganizationGuardrails } from './store/repositories/guardrails.js';
import { enabledDestinations } from './store/repositories/observability-destinations.js';
import { findOrganizationSettings } from './store/repositories/organization-settings.js';
import { findDesignatedSettings } from './store/repositories/presets.js';
import { organizationWorkspaceBudgets } from './store/repositories/workspace-budgets.js';
import { findWorkspaceById } from './store/repositories/workspaces.js';
import type { SharedRedis } from './store/shared-redis.js';
import { type Clock, systemClock } from './util/clock.js';
import { newRequestId } from './util/ids.js';
import { packageVersion } from './util/package-version.js';
import { PeriodicTask } from './util/periodic-task.js';
import { secretBox } from './util/secret-box.js';
import { createVideoJobs, type VideoTuning } from './videos/video-jobs.js';
import { WORKSPACES_TOPIC, WorkspaceCache } from './workspaces/workspace-cache.js';
import { toWorkspaceDefaults } from './workspaces/workspace-defaults.js';

export interface AppOptions {
  store: Store;
  /** The process's stop: paid requests hold it, and its interruption ends them as answers (cli/start-gateway.ts). */
  shutdown?: Shutdown;
  changes: ChangeFeed;
  catalog: Catalog;
  clock?: Clock;
  logger?: FastifyBaseLogger | false;
  /** Where session stickiness is kept; in memory unless Redis is configured. */
  sessionPins?: ProviderPins;
  /** Where prompt-cache stickiness is kept; in memory unless Redis is configured. */
  cachePins?: ProviderPins;
  /** Tuning of the chat flows (tests shorten waits). */
  chat?: Partial<Pick<ChatServices, 'keepAliveAfterMs' | 'retryBudget' | 'sleep' | 'adapters' | 'random'>>;
  /** What clients may send and how long they may take; each limit defaults (http/client-limits.ts). */
  clientLimits?: Partial<ClientLimits>;
  /**
   * How much of an upstream's answer is held in memory; each limit defaults. Process-wide,
   * as the upstream connection pools are (providers/shared/upstream-body-limits.ts).
   */
  upstreamLimits?: Partial<UpstreamBodyLimits>;
  /** Spend reservations: Redis to share holds between instances, and their timings (accounting/spend-guard.ts). */
  spend?: SpendSettings;
  /** Tuning of video jobs and their poller. */
  videos?: VideoTuning;
  /** The moderation plugin's provider; without one the plugin is refused. */
  moderation?: ModerationProvider;
  /** Tools the gateway runs when the model calls them (see plugins/server-tools/). */
  serverTools?: readonly ServerTool[];
  /** The web, web-fetch and file-parser plugins' network and search settings; none open, no search API by default. */
  plugins?: PluginSettings;
  /** How fetches for models resolve names (tests make names resolve anywhere); the system's DNS by default. */
  resolve?: Resolve;
  /** Per-key request limits (gateway.yaml `rate_limits`); none by default. */
  rateLimit?: KeyRateLimiter;
  /** Interns: the runtime that runs them (none: provisioning and runs answer 502), shared Redis for turn quotas, tuning. */
  interns?: InternOptions;
  /** Tuning of the interns runtime built here (it needs the chat services); false runs none. */
  internRuntime?: InternRuntimeTuning | false;
  /** Tuning of the observability destinations' sender (destinations/destination-sender.ts); false runs none in this process. */
  destinations?: Partial<SenderOptions> | false;
  /** Where the process is in its life, for GET /ready (cli/start-gateway.ts); serving once the server is ready by default. */
  lifecycle?: Lifecycle;
  /** Where ledger rows wait while the database is away (accounting/ledger-outbox.ts); without one, a ledger write that fails fails its request. */
  ledgerOutbox?: LedgerOutbox;
  /** Redis shared by the instances, when configured: GET /ready reports it. */
  redis?: SharedRedis;
  /** Metrics, access log and traces (observability/); metrics on GET /metrics and the access log, no traces, by default. */
  observability?: Observability;
  /** BYOK credentials: the master keys from the environment (byok/envelope.ts; the vault key when none) and the fee rate (0). */
  byok?: { masterKeys?: MasterKeys; feeRate?: number };
  /** The files API's storage and bounds; the database and FILE_DEFAULTS' bounds unless given (serve builds them from FILES_*). */
  files?: FilesService;
  /** How the task classifications sample chat requests (classifications/task-sampler.ts); its defaults unless given. */
  classifications?: Partial<SamplerSettings> & { random?: () => number };
  /** Containers of the code_interpreter tool: where they live, their sandbox's caps and pricing; CONTAINER_DEFAULTS unless given (serve reads CONTAINERS_*). */
  containers?: ContainerSettings;
}

export const API_PREFIX = '/api/v1';
/** How often containers unused for 30 days are deleted. */
const CONTAINER_EXPIRY_EVERY_MS = 60 * 60_000;
/** Where OpenRouter serves its alpha APIs (decisions). */
export const ALPHA_PREFIX = '/api/alpha';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the HTTP server from its services; nothing here listens or reads the environment. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const clock = options.clock ?? systemClock;
  const limits: ClientLimits = { ...DEFAULT_CLIENT_LIMITS, ...options.clientLimits };
  const { bodyLimit } = limits;
  setUpstreamBodyLimits({ ...DEFAULT_UPSTREAM_BODY_LIMITS, ...options.upstreamLimits });
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit,
    ...requestTimeoutOptions(limits),
    // Protocol errors Node and Fastify's router answer themselves leave in the envelope too.
    clientErrorHandler: clientErrorHandler(limits),
    frameworkErrors: frameworkErrorHandler(bodyLimit),
    // One log line per request costs more than the rest of a proxied request; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : newRequestId();
    },
    schemaErrorFormatter,
    // Requests that arrive while the server drains are refused in the envelope (api/health/install-health.ts), not Fastify's own body.
    return503OnClosing: false,
  });
  // Past it Node closes new connections at once, so that upstream calls always find a descriptor.
  if (limits.maxConnections !== undefined) app.server.maxConnections = limits.maxConnections;
  app.setValidatorCompiler(validatorCompiler);
  installJsonBodyParser(app, limits.maxJsonDepth);
  installErrorEnvelope(app, bodyLimit);
  // Callback hooks, not async ones, on every request: an async hook costs a promise each time.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  app.decorateRequest('apiKey', null);
  // Before any route: its hooks and handler wrapping apply to the routes registered after it.
  const observability = options.observability ?? new Observability();
  observability.install(app);

  const keys = new KeyCache((hash) => findApiKeyByHash(options.store.db, hash));
  options.changes.subscribe(API_KEY_TOPIC, (hash) => keys.invalidate(hash));
  const services: Services = {
    db: options.store.db,
    clock,
    auth: authenticator(keys, clock, options.rateLimit, consoleSessionKey(options.store.db, clock)),
    keys,
    changes: options.changes,
    catalog: options.catalog,
  };
  // Before any route: the OpenAPI document lists the routes registered after it.
  await installOpenApi(app, { version: packageVersion(), apiPrefix: API_PREFIX, auth: services.auth });
  await installHealth(app, { store: options.store, lifecycle: options.lifecycle, redis: options.redis, outbox: options.ledgerOutbox });
  observability.installRoute(app);

  const organizationSettings = new SettingsCache(async (id) => toOrganizationSettings(await findOrganizationSettings(services.db, id)));
  options.changes.subscribe(ORGANIZATION_SETTINGS_TOPIC, (id) => organizationSettings.invalidate(id));
  const presets = new PresetCache(async (workspaceId, slug) => {
    const found = await findDesignatedSettings(services.db, workspaceId, slug);
    return found && { config: JSON.parse(found.config) as Record<string, unknown>, systemPrompt: found.system_prompt };
  });
  options.changes.subscribe(PRESETS_TOPIC, (id) => presets.invalidate(id));
  const workspaces = new WorkspaceCache(async (id) => toWorkspaceDefaults(await findWorkspaceById(services.db, id)));
  options.changes.subscribe(WORKSPACES_TOPIC, (id) => workspaces.invalidate(id));
  const guardrails = new GuardrailCache((organizationId) => loadOrganizationGuardrails(services.db, organizationId));
  options.changes.subscribe(GUARDRAILS_TOPIC, (organizationId) => guardrails.invalidate(organizationId));
  const credits = new CreditsCache((organizationId) => totalCredits(services.db, organizationId));
  options.changes.subscribe(CREDITS_TOPIC, (organizationId) => credits.invalidate(organizationId));
  const workspaceBudgets = new WorkspaceBudgetCache((organizationId) => organizationWorkspaceBudgets(services.db, organizationId));
  options.changes.subscribe(WORKSPACE_BUDGETS_TOPIC, (organizationId) => workspaceBudgets.invalidate(organizationId));
  const plugins = createPluginServices(options.plugins ?? { allowPrivateRanges: [] }, options.resolve ? { resolve: options.resolve } : {});
  app.addHook('onClose', async () => plugins.close());
  const files = options.files ?? {
    storage: databaseStorage(services.db),
    maxBytes: FILE_DEFAULTS.maxBytes,
    workspaceQuotaBytes: FILE_DEFAULTS.workspaceQuotaBytes,
  };
  const containerSettings = options.containers ?? CONTAINER_DEFAULTS;
  const containers = new Containers({
    db: services.db,
    clock,
    sandbox: new Sandbox(containerSettings.programs, containerSettings.limits),
    directory: containerSettings.directory,
    workspaceQuotaBytes: files.workspaceQuotaBytes,
    fileStorage: files.storage,
  });
  // Whether code can run here is found before the first request, so that a code_interpreter request is refused (503) before any upstream call.
  app.addHook('onReady', async () => void (await containers.unavailable()));
  const containerExpiry = new PeriodicTask(async (signal) => void (await containers.expire(signal)), {
    everyMs: CONTAINER_EXPIRY_EVERY_MS,
    onError: (error) => app.log.warn({ err: error }, 'container expiry failed'),
  });
  app.addHook('onReady', async () => containerExpiry.start());
  app.addHook('onClose', async () => containerExpiry.stop());
  const pipeline = createPipeline({
    files: fileReader(services.db, files.storage),
    guardrails,
    moderation: options.moderation,
    serverTools: new ServerToolRegistry([
      webFetchServerTool(plugins),
      webSearchServerTool(plugins.search),
      fusionServerTool(servesChat(services.catalog)),
      codeInterpreterServerTool(containers, containerSettings.pricing),
      ...(options.serverTools ?? []),
    ]),
    clock,
    plugins: { ...plugins, catalog: services.catalog },
    ...(observability.pipelineStep ? { step: observability.pipelineStep } : {}),
  });

  const shutdown = options.shutdown ?? new Shutdown();
  const outbox = options.ledgerOutbox;
  // Which workspaces broadcast their generations, in memory: the ledger adds one outbox INSERT to a batch only for them.
  const destinationCache = new DestinationCache(() => enabledDestinations(services.db));
  const logDestinationError = (message: string, error: unknown) =>
    isDatabaseUnavailable(error) ? app.log.debug({ err: error }, message) : app.log.warn({ err: error }, message);
  await destinationCache.reload().catch((error) => logDestinationError('observability destinations: loading failed', error));
  const reloadDestinations = () =>
    destinationCache.reload().catch((error) => logDestinationError('observability destinations: reloading failed', error));
  options.changes.subscribe(DESTINATIONS_TOPIC, reloadDestinations);
  // A workspace's broadcast switch (is_observability_broadcast_enabled) changes which destinations get events.
  options.changes.subscribe(WORKSPACES_TOPIC, reloadDestinations);
  destinationCache.start(30_000, (error) => logDestinationError('observability destinations: reloading failed', error));
  app.addHook('onClose', async () => destinationCache.stop());
  // Every ledger write, a chat's batch or a video job's charge, queues its generations' events in its transaction.
  const destinationOutbox: LedgerExtra = (db, rows, now) => destinationCache.outboxStatement(db, rows, now.toISOString());
  const spend = spendGuard(
    services.db,
    guardrails,
    clock,
    {
      ...options.spend,
      credits: (organizationId) => credits.get(organizationId),
      workspaceBudgets: (organizationId, workspaceId) => workspaceBudgets.get(organizationId, workspaceId),
      ...(outbox ? { unwritten: () => outbox.unwrittenSpend() } : {}),
    },
    (error) =>
      // Through Redis's outage log when there is one: one warning per outage, not one per request.
      options.redis
        ? options.redis.noteFailure(error)
        : app.log.warn({ err: error }, 'spend reservations: Redis failed, holding in this instance'),
  );
  observability.observeSpend(spend);
  // Vault secrets are sealed under a key generated once per deployment and kept in the database; BYOK credentials under the
  // operator's master keys (BYOK_MASTER_KEY), with that vault key still opening rows sealed before one was set.
  const vaultKey = await settingOrCreate(services.db, 'vault_key', () => randomBytes(32).toString('hex'));
  const byokEnvelope = envelope(options.byok?.masterKeys ? [...options.byok.masterKeys, vaultKey] : [vaultKey]);
  const byok = new CredentialCache(
    async () => ({ rows: await usableByokCredentials(services.db), noFallback: await organizationsWithoutByokFallback(services.db) }),
    byokEnvelope,
    () => clock().getTime(),
    (error) => app.log.warn({ err: error }, 'BYOK credentials: reload failed, keeping those known'),
  );
  options.changes.subscribe(BYOK_TOPIC, () => void byok.reload());
  await byok.reload();
  const taskSampler = new TaskSampler({ ...SAMPLER_DEFAULTS, ...options.classifications }, options.classifications?.random);
  const chat: ChatServices = {
    taskSampler,
    pipeline,
    spend,
    db: services.db,
    ledger: observability.observeLedger(
      storeLedgerWriter(
        options.store,
        clock,
        outbox,
        (error) => app.log.error({ err: error }, 'ledger outbox: writing its rows back failed; trying again'),
        destinationOutbox,
      ),
      outbox,
    ),
    clock,
    catalog: services.catalog,
    adapters: CHAT_ADAPTERS,
    health: new EndpointHealth(() => clock().getTime()),
    pins: options.sessionPins ?? memoryPins(SESSION_PINS),
    cachePins: options.cachePins ?? memoryPins(CACHE_PINS),
    hashEndUser: endUserHasher(await settingOrCreate(services.db, 'end_user_hash_key', () => randomBytes(32).toString('hex'))),
    sleep: (ms, signal) => sleep(ms, undefined, { signal }),
    retryBudget: { maxWaitMs: 2_000, totalWaitMs: 5_000 },
    keepAliveAfterMs: 2_000,
    organizationSettings,
    presets,
    workspaces,
    observer: observability.runs,
    byok,
    byokFeeRate: options.byok?.feeRate ?? 0,
    ...options.chat,
  };
  observability.watchHealth(services.catalog, chat.health);
  app.addHook('onClose', async () => chat.ledger.close());
  assertServable(services.catalog, { ...KINDS_BY_TASK, chat: Object.keys(chat.adapters) });
  const videos = createVideoJobs(
    {
      db: services.db,
      clock,
      catalog: services.catalog,
      adapters: VIDEO_ADAPTERS,
      spend,
      random: chat.random,
      ledgerExtra: destinationOutbox,
      ...(chat.byok ? { byok: chat.byok } : {}),
      byokFeeRate: chat.byokFeeRate ?? 0,
    },
    options.videos ?? {},
    (error) =>
      isDatabaseUnavailable(error)
        ? app.log.debug({ err: error }, 'video job poll failed')
        : app.log.error({ err: error }, 'video job poll failed'),
  );
  // Jobs live in the database: the poller runs while the server does, and any instance finishes any job. Like the interns'
  // runtime below, a tick that fails for want of the database logs at debug: the store tells the outage once.
  app.decorate('videoPoller', videos.poller);
  app.addHook('onReady', async () => videos.poller.start());
  app.addHook('onClose', async () => videos.poller.stop());
  // usage_daily is folded from the hours once a day is over, so that no ledger commit keeps it (accounting/usage-day-folds.ts).
  const dayFolder = usageDayFolder(options.store, clock, (error) =>
    isDatabaseUnavailable(error)
      ? app.log.debug({ err: error }, 'usage day fold failed')
      : app.log.error({ err: error }, 'usage day fold failed'),
  );
  app.addHook('onReady', async () => dayFolder.start());
  app.addHook('onClose', async () => dayFolder.stop());
  // Sampled chat requests are classified into task_usage_daily off the request path (classifications/classification-pass.ts).
  const classifier = classificationTask(options.store, taskSampler, clock, (error) =>
    isDatabaseUnavailable(error)
      ? app.log.debug({ err: error }, 'task classification pass failed')
      : app.log.error({ err: error }, 'task classification pass failed'),
  );
  app.decorate('classifyTaskSamples', () => classificationPass(options.store, taskSampler.take(), clock()));
  app.addHook('onReady', async () => classifier.start());
  app.addHook('onClose', async () => classifier.stop());
  // GET /datasets/session-cost reads the sessions' costs folded by day (datasets/session-cost-folds.ts).
  const sessionCosts = sessionCostFolder(options.store, clock, (error) =>
    isDatabaseUnavailable(error)
      ? app.log.debug({ err: error }, 'session cost fold failed')
      : app.log.error({ err: error }, 'session cost fold failed'),
  );
  app.addHook('onReady', async () => sessionCosts.start());
  app.addHook('onClose', async () => sessionCosts.stop());
  const vaultBox = secretBox(vaultKey);
  const internSecrets = internSecretReader({ db: services.db, box: vaultBox });
  // Destinations' events leave through the SSRF-safe fetcher, under the same private-range policy as the plugins.
  if (options.destinations !== false) {
    const fetcher = createSafeFetcher({
      policy: publicAddressPolicy(options.plugins?.allowPrivateRanges ?? []),
      ...(options.resolve ? { resolve: options.resolve } : {}),
    });
    const sender = new DestinationSender(
      { db: services.db, clock, box: vaultBox, fetcher, random: Math.random, log: logDestinationError },
      { ...SENDER_DEFAULTS, ...options.destinations },
    );
    app.addHook('onReady', async () => sender.start());
    app.addHook('onClose', async () => {
      await sender.stop();
      await fetcher.close();
    });
  }
  // Intern runs live in the database under leases, like video jobs: the runtime runs while the server does.
  const internRuntime =
    options.interns?.runtime ??
    (options.internRuntime === false
      ? undefined
      : createInternRuntime({
          ...options.internRuntime,
          db: services.db,
          clock,
          chat,
          changes: services.changes,
          secrets: internSecrets.withHosts,
          allowPrivateRanges: options.plugins?.allowPrivateRanges ?? [],
          log: (message, detail) =>
            isDatabaseUnavailable(detail) ? app.log.debug({ err: detail }, message) : app.log.warn({ err: detail }, message),
        }));
  app.decorate('internRuntime', internRuntime);
  app.addHook('onReady', async () => internRuntime?.start());
  app.addHook('onClose', async () => internRuntime?.close());

  // Cookies are parsed only where asked (the console session), not on every request.
  await app.register(fastifyCookie, { hook: false });
  await serveConsole(app);
  await app.register(
    async (api) => {
      // Before the routes: a paid request refused before any upstream call is a ledger row too.
      recordRefusals(api, chat, API_PREFIX);
      await api.register(chatRoutes({ ...chat, auth: services.auth, shutdown }));
      await api.register(responsesRoutes({ ...chat, auth: services.auth, shutdown }));
      await api.register(messagesRoutes({ ...chat, auth: services.auth, shutdown }));
      // Rerank, embeddings, images, speech and transcription share chat's endpoint health, retry budget and waits; each has its own adapters.
      await api.register(rerankRoutes({ ...chat, adapters: RERANK_ADAPTERS, auth: services.auth, shutdown }));
      await api.register(embeddingsRoutes({ ...chat, adapters: EMBEDDINGS_ADAPTERS, auth: services.auth, shutdown }));
      await api.register(imagesRoutes({ ...chat, adapters: IMAGES_ADAPTERS, auth: services.auth, shutdown, fetcher: plugins.fetcher }));
      await api.register(audioRoutes({ ...chat, adapters: SPEECH_ADAPTERS, auth: services.auth, shutdown }));
      await api.register(
        transcriptionRoutes({
          ...chat,
          adapters: TRANSCRIPTION_ADAPTERS,
          auth: services.auth,
          shutdown,
          maxBytes: limits.transcriptionMaxBytes,
        }),
      );
      await api.register(keysRoutes(services));
      await api.register(presetsRoutes(services));
      await api.register(authRoutes(services));
      await api.register(organizationRoutes(services));
      await api.register(generationRoutes(services));
      await api.register(generationContentRoutes(services));
      await api.register(generationListRoutes(services));
      await api.register(consoleSessionRoutes(services, signInLimiter(options.redis)));
      await api.register(activityRoutes(services));
      await api.register(analyticsRoutes(services));
      await api.register(datasetsRoutes(services));
      await api.register(classificationsRoutes(services));
      await api.register(creditsRoutes(services));
      await api.register(organizationSettingsRoutes(services));
      await api.register(videoRoutes({ ...videos.services, auth: services.auth, poller: videos.poller }));
      await api.register(
        modelsRoutes({
          catalog: services.catalog,
          requireKey: services.auth.requireKey,
          health: chat.health,
          endpointsOfKey: endpointsOfKey({ organizationSettings, guardrails }),
        }),
      );
      await api.register(providersRoutes({ catalog: services.catalog, requireKey: services.auth.requireKey, health: chat.health }));
      await api.register(benchmarksRoutes({ ...services, requireKey: services.auth.requireKey, health: chat.health }));
      await api.register(guardrailsRoutes(services));
      await api.register(guardrailAssignmentRoutes(services));
      await api.register(workspacesRoutes({ ...services, files, containers }));
      await api.register(workspaceMemberRoutes(services));
      await api.register(scimManagementRoutes(services));
      await api.register(scimServiceRoutes(services, { maxJsonDepth: limits.maxJsonDepth }), { prefix: '/scim/v2' });
      const interns = internServices(services, { ...options.interns, ...(internRuntime ? { runtime: internRuntime } : {}) });
      await api.register(internsRoutes(interns));
      await api.register(vaultRoutes({ ...interns, box: vaultBox }));
      await api.register(destinationsRoutes({ ...services, box: vaultBox }));
      await api.register(workspaceBudgetRoutes(services));
      await api.register(byokRoutes({ ...services, envelope: byokEnvelope, credentials: byok }));
      await api.register(filesRoutes({ ...services, files }));
      await api.register(containersRoutes({ ...services, containers, files }));
    },
    { prefix: API_PREFIX },
  );
  // Decisions are alpha: served outside /api/v1, where OpenRouter serves them.
  await app.register(
    async (alpha) => {
      recordRefusals(alpha, chat, ALPHA_PREFIX);
      await alpha.register(
        decisionsRoutes({ ...chat, adapters: DECISIONS_ADAPTERS, chatAdapters: chat.adapters, auth: services.auth, shutdown }),
      );
    },
    { prefix: ALPHA_PREFIX },
  );
  return app;
}
