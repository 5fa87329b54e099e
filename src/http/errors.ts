/**
 * Every error the gateway can return, named once with its status and message
 * (as Fastify's lib/errors.js does). A GatewayError becomes the spec's envelope
 * `{"error":{"code","message","metadata"}}` in http/error-envelope.ts.
 */
import { GatewayError, type ErrorMetadata } from '../protocol/gateway-error.js';

const define =
  <A extends unknown[]>(statusCode: number, message: (...args: A) => string) =>
  (...args: A) =>
    new GatewayError(statusCode, message(...args));

const withMetadata =
  <A extends unknown[]>(statusCode: number, message: (...args: A) => string) =>
  (metadata: ErrorMetadata, ...args: A) =>
    new GatewayError(statusCode, message(...args), metadata);

/** Spec 7.3's reason and retryable of an intern error, by status. */
export const INTERN_ERROR_REASONS: Readonly<Record<number, { reason: string; retryable: boolean }>> = {
  400: { reason: 'bad_request', retryable: false },
  404: { reason: 'not_found', retryable: false },
  408: { reason: 'timeout', retryable: true },
  409: { reason: 'intern_not_ready', retryable: true },
  413: { reason: 'payload_too_large', retryable: false },
  415: { reason: 'unsupported_media_type', retryable: false },
  429: { reason: 'rate_limited', retryable: true },
  500: { reason: 'intern_unreachable', retryable: true },
  502: { reason: 'intern_unreachable', retryable: true },
  503: { reason: 'busy', retryable: true },
  504: { reason: 'timeout', retryable: true },
};

const intern =
  <A extends unknown[]>(statusCode: number, message: (...args: A) => string) =>
  (...args: A) =>
    new GatewayError(statusCode, message(...args), { ...INTERN_ERROR_REASONS[statusCode] });

const LIMIT_WINDOWS = { daily: 'per day', weekly: 'per week', monthly: 'per month' } as const;

export const Errors = {
  // 400
  invalidRequest: define(400, (detail: string) => detail),
  malformedJson: define(400, (detail: string) => `Malformed JSON body: ${detail}`),
  routerDisabled: define(
    400,
    (model: string, plugin: string) => `Model ${model} is routed by the ${plugin} plugin, which this request disables (enabled: false)`,
  ),
  unsafePattern: define(
    400,
    (field: string, pattern: string, reason: string) =>
      `${field} ${JSON.stringify(pattern)} is not a regular expression this gateway runs in linear time (RE2 syntax: no backreferences or lookaround): ${reason}`,
  ),
  moderationUnavailable: define(400, () => 'plugins: moderation is not available: this gateway has no moderation provider configured'),
  jsonTooDeep: define(400, (field: string, limit: number) => `${field} nests objects and arrays deeper than ${limit} levels, the limit of a JSON body`),
  prototypeKey: define(
    400,
    (field: string, key: '__proto__' | 'constructor') =>
      `${field}: a "${key}" key${key === 'constructor' ? ' holding a "prototype"' : ''} is refused, because it could change the prototype of objects built from the body (prototype poisoning); rename the key`,
  ),
  malformedHttp: define(400, (reason: string) => `Malformed HTTP request: ${reason}`),
  badUrl: define(400, (url: string) => `Malformed URL ${url}: a % must start a percent-encoded byte such as %20`),

  // 401
  missingAuthentication: define(401, () => 'Missing Authentication header'),
  invalidApiKey: define(401, () => 'Invalid API key'),
  disabledApiKey: define(401, () => 'API key is disabled'),
  expiredApiKey: define(401, () => 'API key has expired'),
  invalidMetricsToken: define(401, () => 'Invalid metrics token: GET /metrics takes the METRICS_TOKEN setting as its bearer token'),

  // 402
  spendLimitReached: define(
    402,
    (limit: number, reset: 'daily' | 'weekly' | 'monthly' | null) =>
      `API key spending limit of $${limit} ${reset ? LIMIT_WINDOWS[reset] : 'in total'} is reached`,
  ),
  /** A request not priced by the token (a video, a rerank) that a limit cannot cover; metadata names the limit. */
  spendLimitTooLow: withMetadata(
    402,
    (cost: number, remaining: number, limit: string) =>
      `This request can cost up to $${Number(cost.toPrecision(6))}, more than the $${Number(remaining.toPrecision(6))} left of ${limit} once the requests in flight are counted`,
  ),
  /** The organization's credit balance is spent (credits/): metadata has the totals. */
  creditsSpent: withMetadata(
    402,
    (usage: number, credits: number) =>
      `Insufficient credits: the organization has used $${Number(usage.toPrecision(6))} of the $${Number(credits.toPrecision(6))} granted to it; an operator grants more (model-gateway credits grant)`,
  ),
  /** OpenRouter's words for a chat whose most possible cost a limit cannot cover; metadata names the limit. */
  tokensUnaffordable: withMetadata(
    402,
    (requested: number, affordable: number) =>
      `This request requires more credits, or fewer max_tokens. You requested up to ${requested} tokens, but can only afford ${affordable}.`,
  ),

  // 403
  managementKeyRequired: define(403, () => 'Only management keys can perform this operation'),
  operatorKeyRequired: define(403, (what: string) => `Only the operator's management keys (of the default organization) can ${what}`),
  invalidAuthorizationCode: define(403, () => 'Authorization code is invalid, expired or already used'),
  codeVerifierMismatch: define(403, (detail: string) => `PKCE verification failed: ${detail}`),
  /** PKCE: the key creating a code, or the one that created it, may not mint a key (disabled, expired, limit spent, deleted). */
  mintingRefused: define(403, (subject: string, why: string) => `${subject} ${why}: it cannot create another key`),
  /** Spec 7.2: metadata.patterns lists what matched (never the matched text). */
  guardrailBlocked: withMetadata(403, (guardrail: string, detail: string) => `Request blocked by guardrail ${guardrail}: ${detail}`),
  moderationFlagged: withMetadata(403, (categories: string) => `Request blocked by moderation: input flagged for ${categories}`),

  // 404
  routeNotFound: define(404, (method: string, url: string) => `Route ${method} ${url} not found`),
  notFound: define(404, (what: string) => `${what} not found`),
  contentNotStored: define(404, () => "Generation content is not stored: this organization's content storage is off (store_content, PATCH /organization/settings)"),
  noStoredContent: define(404, (id: string) => `No content was stored for generation ${id}: content storage was off when it ran, or it was not a chat`),
  modelNotFound: define(404, (model: string) => `Model ${model} does not exist or is not enabled on this gateway`),
  routerFoundNoModel: define(404, (plugin: string, detail: string) => `The ${plugin} plugin found no model for this request: ${detail}`),
  /** Provider preferences removed every endpoint; the metadata lists the candidates and why each was dropped. */
  noEndpointMatchesPreferences: withMetadata(404, (detail: string) => detail),

  // 408
  clientTimeout: define(
    408,
    (headersMs: number, bodyMs: number) =>
      `The request did not arrive in time: its headers must arrive within ${headersMs} ms of its first byte, and its body within ${bodyMs} ms more`,
  ),

  // 409
  presetExists: define(409, (slug: string) => `Preset ${slug} already exists`),
  authorizationCodeConflict: define(
    409,
    () => 'An unused authorization code already exists for this code_challenge; use a fresh challenge',
  ),

  // 413
  payloadTooLarge: define(413, (limit: number) => `Request body exceeds the ${limit}-byte limit`),
  chunkExtensionsTooLarge: define(413, (limit: number) => `The chunk extensions of the request body exceed the ${limit}-byte limit`),

  // 414, 431
  pathParameterTooLong: define(414, (limit: number) => `A path parameter is longer than ${limit} characters`),
  headersTooLarge: define(431, (limit: number) => `The request headers exceed the ${limit}-byte limit`),

  // 429
  keyRateLimited: withMetadata(
    429,
    (requests: number, seconds: number) => `Rate limit exceeded: an API key may make ${requests} requests per ${seconds} seconds; retry after the Retry-After header's seconds`,
  ),

  // Upstream failures after every attempt (spec 7.2), each with the attempts in metadata.
  upstreamFailed: withMetadata(502, (provider: string, detail: string) => `Provider ${provider} failed: ${detail}`),
  upstreamTimeout: withMetadata(408, (detail: string) => `Upstream request timed out: ${detail}`),
  upstreamEdgeTimeout: withMetadata(524, (provider: string) => `Provider ${provider} did not answer in time`),
  upstreamOverloaded: withMetadata(529, (provider: string) => `Provider ${provider} is temporarily overloaded`),
  upstreamRateLimited: withMetadata(429, (provider: string) => `Provider ${provider} is rate limiting requests; retry later`),
  /** The upstream refused the request itself (a 4xx other than 408/429): its status is passed on. */
  upstreamRefused: (status: number, metadata: ErrorMetadata, provider: string, detail: string) =>
    new GatewayError(status, `Provider ${provider} refused the request: ${detail}`, metadata),
  noEndpointAvailable: withMetadata(503, (model: string) => `No provider endpoint is available for ${model}`),
  moderationFailed: withMetadata(502, (provider: string, detail: string) => `Moderation provider ${provider} failed: ${detail}`),

  // 500
  internal: define(500, () => 'Internal Server Error'),

  // 503
  shuttingDown: define(503, () => 'Server is shutting down'),
  gatewayOutOfResources: withMetadata(503, (detail: string) => `The gateway cannot reach providers right now: ${detail}; retry later`),
  databaseUnavailable: define(503, () => 'The database is unavailable right now and this request needs it; retry later'),
  notReady: withMetadata(503, (reason: string) => `Not ready: ${reason}`),

  // Plugins: web, web-fetch, file-parser, context-compression
  pluginEngineUnavailable: define(400, (field: string, engine: string, detail: string) => `${field} "${engine}" is not available on this gateway: ${detail}`),
  fileUnreadable: define(400, (field: string, detail: string) => `${field} ${detail}`),
  promptTooLong: withMetadata(
    400,
    (tokens: number, budget: number) =>
      `The prompt is ${tokens} tokens even after context-compression, more than the ${budget} tokens the model's context leaves for it`,
  ),
  webSearchFailed: withMetadata(502, (engine: string, detail: string) => `Web search (${engine}) failed: ${detail}`),
  fusionModelUnavailable: define(400, (field: string, model: string) => `${field}: model ${model} is not served by this gateway`),
  fusionPresetUnavailable: define(400, (preset: string, models: string) => `plugins fusion preset "${preset}": none of its models (${models}) is served by this gateway; name analysis_models and model`),
  fusionPanelFailed: withMetadata(502, (detail: string) => `Fusion failed: ${detail}`),

  // Interns (spec 7.3): every status but 401 and 403 carries {reason, retryable}.
  internUnauthorized: define(401, (detail: string) => `Invalid or missing API key: ${detail}`),
  internKeyCreatorNotMember: define(
    403,
    () => "This API key's creator is no longer a member of the organization; an organization admin must reassign the key to an active member (PATCH /keys/{hash} with creator_user_id)",
  ),
  internBadRequest: intern(400, (detail: string) => detail),
  internNotFound: intern(404, (what: string) => `${what} not found`),
  internAcceptTimeout: intern(408, (seconds: number) => `The invoke could not be accepted within ${seconds} seconds`),
  internNotReady: intern(409, (status: string) => `The intern is not running (status ${status}); provision it first`),
  internPayloadTooLarge: intern(413, (limit: number) => `Request body exceeds the ${limit}-byte limit`),
  internUnsupportedMediaType: intern(415, (type: string) => `A request body must be sent as application/json, not ${type}`),
  internRateLimited: intern(429, (turns: number) => `Too many intern turns: this intern takes ${turns} turns per minute; retry later`),
  internLookupFailed: intern(500, () => 'The intern could not be looked up'),
  internUnreachable: intern(502, (detail: string) => `The intern could not be reached: ${detail}`),
  internBusy: intern(503, (open: number) => `The intern already holds ${open} run${open === 1 ? '' : 's'} open across a question and cannot hold another`),
  internTimeout: intern(504, () => 'The intern did not answer in time'),
  /** A tool message on intern chat that answers nothing the session's run asked (the SDK's interaction reasons). */
  interactionUnknown: (id: string) => new GatewayError(400, `tool_call_id ${id} is not the input this session's run asked for`, { reason: 'interaction_unknown', retryable: false }),
  interactionNotPending: () => new GatewayError(409, "A tool message answers a question, but this session's run is not waiting for one", { reason: 'interaction_not_pending', retryable: false }),
  /** How an intern chat stream reports a run that did not finish (the SDK's InternChatStreamError reasons). */
  internRunFailed: (detail: string) => new GatewayError(502, `The run failed: ${detail}`, { reason: 'turn_failed', retryable: true }),
  internRunEnded: (reason: string, detail?: string) =>
    new GatewayError(410, `The run ended (${reason === 'deadline' ? "the intern's execution deadline passed" : detail ? `${reason}: ${detail}` : reason})`, { reason: 'run_ended', retryable: false }),
  /**
   * A chat stream that can no longer read its run's events (the runtime or the database failed):
   * the run's fate is unknown to the stream, unlike run_ended. 502 as intern_unreachable, the
   * status this failure would have had before the stream opened: the gateway lost its upstream.
   */
  internStreamSevered: (detail: string) => new GatewayError(502, `The stream of the run was severed: ${detail}`, { reason: 'stream_severed', retryable: true }),
  /** An intern create retried under its Idempotency-Key with another body: 409, as the SDK's createIntern errors allow (not 422). */
  internIdempotencyConflict: () =>
    new GatewayError(409, 'This Idempotency-Key was used for a create with another body; send a new key to create another intern', { reason: 'idempotency_key_reused', retryable: false }),
  /** A lifecycle operation the intern's status does not allow (e.g. provisioning a running intern). */
  internStateConflict: (status: string, action: string) =>
    new GatewayError(409, `The intern cannot be ${action} while its status is ${status}`, { reason: 'conflict', retryable: false }),
} as const;

/**
 * A generic error (validation, body size, key rate limit) in spec 7.3's terms
 * on an intern path: 401 says "invalid or missing API key", 401 and 403 carry
 * no metadata, every other listed status carries its reason and retryable.
 */
export function asInternError(error: GatewayError): GatewayError {
  if (error.statusCode === 401) return error.message.startsWith('Invalid or missing API key') ? error : Errors.internUnauthorized(error.message);
  if (error.statusCode === 403) return error.metadata ? new GatewayError(403, error.message) : error;
  const reasons = INTERN_ERROR_REASONS[error.statusCode];
  if (!reasons || (error.metadata && 'reason' in error.metadata)) return error;
  return new GatewayError(error.statusCode, error.message, { ...error.metadata, ...reasons });
}
