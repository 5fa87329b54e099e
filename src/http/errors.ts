/**
 * Every error the gateway can return, in one table (as Fastify's lib/errors.js
 * is): each entry has a stable code name (GW_ERR_…), its status, a one-line
 * description and its message. A GatewayError becomes the spec's envelope
 * `{"error":{"code","message","metadata"}}` in http/error-envelope.ts, which
 * sends the name in the X-Error-Code header; the logs and the ledger record it.
 * docs/errors.md is generated from this table (`npm run docs:errors`).
 *
 * A code name, once given, never changes and is never given to another error:
 * clients and dashboards match on it. A new error gets a new entry; an entry no
 * longer raised stays listed.
 */
import { type ErrorCode, type ErrorMetadata, GatewayError } from '../protocol/gateway-error.js';

/** What docs/errors.md says of an entry; every factory of `Errors` carries it. */
export interface CatalogueEntry {
  readonly code: ErrorCode;
  /** The HTTP status; '4xx' for an entry that passes on another's client-error status. */
  readonly status: number | '4xx';
  /** What happened, in one line. */
  readonly description: string;
  /** The message with example arguments ({name} stands for a text the gateway fills in). */
  readonly example: string;
}

interface Definition<A extends unknown[]> {
  code: ErrorCode;
  description: string;
  message: (...args: A) => string;
  /** Arguments the docs' example message is made with. */
  example: NoInfer<A>;
}

interface Fixed<A extends unknown[]> extends Definition<A> {
  status: number;
}

/** A factory of errors, with what the docs say of it. */
const entry = <F extends object, A extends unknown[]>(factory: F, status: number | '4xx', d: Definition<A>): F & CatalogueEntry =>
  Object.assign(factory, { code: d.code, status, description: d.description, example: d.message(...d.example) });

const define = <A extends unknown[]>(d: Fixed<A>) =>
  entry((...args: A) => new GatewayError(d.code, d.status, d.message(...args)), d.status, d);

const withMetadata = <A extends unknown[]>(d: Fixed<A>) =>
  entry((metadata: ErrorMetadata, ...args: A) => new GatewayError(d.code, d.status, d.message(...args), metadata), d.status, d);

/** An entry whose status is another's (a client error passed on): the factory takes it first. */
const passingOn = <A extends unknown[]>(d: Definition<A>) =>
  entry(
    (status: number, metadata: ErrorMetadata | undefined, ...args: A) => new GatewayError(d.code, status, d.message(...args), metadata),
    '4xx',
    d,
  );

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

/** An intern error: its metadata is spec 7.3's reason and retryable, of its status unless named. */
const intern = <A extends unknown[]>(d: Fixed<A> & { reason?: { reason: string; retryable: boolean } }) =>
  entry(
    (...args: A) => new GatewayError(d.code, d.status, d.message(...args), { ...(d.reason ?? INTERN_ERROR_REASONS[d.status]) }),
    d.status,
    d,
  );

const LIMIT_WINDOWS = { daily: 'per day', weekly: 'per week', monthly: 'per month' } as const;

export const Errors = {
  // 400
  invalidRequest: define({
    code: 'GW_ERR_INVALID_REQUEST',
    status: 400,
    description: 'A field of the request breaks a rule: the message names the field and the rule',
    message: (detail: string) => detail,
    example: ['max_tokens must be >= 1'],
  }),
  malformedJson: define({
    code: 'GW_ERR_MALFORMED_JSON',
    status: 400,
    description: 'The body is not JSON, or is empty',
    message: (detail: string) => `Malformed JSON body: ${detail}`,
    example: ['the body is not valid JSON'],
  }),
  /** A SCIM request (/scim/v2) that breaks a rule; metadata.scimType is RFC 7644 §3.12's scimType (invalidFilter, invalidValue, …). */
  scimInvalid: withMetadata({
    code: 'GW_ERR_SCIM_INVALID',
    status: 400,
    description: 'A SCIM request breaks a rule of RFC 7643/7644 (metadata.scimType says which kind)',
    message: (detail: string) => detail,
    example: ['userName is required'],
  }),
  routerDisabled: define({
    code: 'GW_ERR_ROUTER_PLUGIN_DISABLED',
    status: 400,
    description: 'The model is routed by a plugin the request turns off',
    message: (model: string, plugin: string) =>
      `Model ${model} is routed by the ${plugin} plugin, which this request disables (enabled: false)`,
    example: ['{model}', '{plugin}'],
  }),
  unsafePattern: define({
    code: 'GW_ERR_UNSAFE_PATTERN',
    status: 400,
    description: 'A regular expression the gateway cannot run in linear time',
    message: (field: string, pattern: string, reason: string) =>
      `${field} ${JSON.stringify(pattern)} is not a regular expression this gateway runs in linear time (RE2 syntax: no backreferences or lookaround): ${reason}`,
    example: ['{field}', '{pattern}', '{reason}'],
  }),
  moderationUnavailable: define({
    code: 'GW_ERR_MODERATION_UNAVAILABLE',
    status: 400,
    description: 'The moderation plugin was asked for, but no moderation provider is configured',
    message: () => 'plugins: moderation is not available: this gateway has no moderation provider configured',
    example: [],
  }),
  jsonTooDeep: define({
    code: 'GW_ERR_JSON_TOO_DEEP',
    status: 400,
    description: 'The JSON body nests deeper than the configured limit',
    message: (field: string, limit: number) => `${field} nests objects and arrays deeper than ${limit} levels, the limit of a JSON body`,
    example: ['{field}', 64],
  }),
  prototypeKey: define({
    code: 'GW_ERR_PROTOTYPE_KEY',
    status: 400,
    description: 'The body has a `__proto__` (or `constructor.prototype`) key, refused against prototype poisoning',
    message: (field: string, key: '__proto__' | 'constructor') =>
      `${field}: a "${key}" key${key === 'constructor' ? ' holding a "prototype"' : ''} is refused, because it could change the prototype of objects built from the body (prototype poisoning); rename the key`,
    example: ['{field}', '__proto__'],
  }),
  malformedHttp: define({
    code: 'GW_ERR_MALFORMED_HTTP',
    status: 400,
    description: 'The bytes sent are not an HTTP request Node can parse',
    message: (reason: string) => `Malformed HTTP request: ${reason}`,
    example: ['Invalid method encountered'],
  }),
  badUrl: define({
    code: 'GW_ERR_MALFORMED_URL',
    status: 400,
    description: 'The URL has a % that does not start a percent-encoded byte',
    message: (url: string) => `Malformed URL ${url}: a % must start a percent-encoded byte such as %20`,
    example: ['/%zz'],
  }),

  // 401
  missingAuthentication: define({
    code: 'GW_ERR_MISSING_AUTHENTICATION',
    status: 401,
    description: 'No API key was sent',
    message: () => 'Missing Authentication header',
    example: [],
  }),
  invalidApiKey: define({
    code: 'GW_ERR_INVALID_API_KEY',
    status: 401,
    description: 'The API key sent is not one of this gateway',
    message: () => 'Invalid API key',
    example: [],
  }),
  disabledApiKey: define({
    code: 'GW_ERR_API_KEY_DISABLED',
    status: 401,
    description: 'The API key is disabled',
    message: () => 'API key is disabled',
    example: [],
  }),
  expiredApiKey: define({
    code: 'GW_ERR_API_KEY_EXPIRED',
    status: 401,
    description: 'The API key has expired',
    message: () => 'API key has expired',
    example: [],
  }),
  scimTokenInvalid: define({
    code: 'GW_ERR_SCIM_TOKEN_INVALID',
    status: 401,
    description: "The SCIM bearer token is missing or is not the organization's current one",
    message: () =>
      'Invalid or missing SCIM bearer token: an organization admin creates one with POST /api/v1/scim/token or `model-gateway scim token create`',
    example: [],
  }),
  consoleSessionEnded: define({
    code: 'GW_ERR_CONSOLE_SESSION_ENDED',
    status: 401,
    description: "The web console's session has ended, expired or is unknown",
    message: () => 'Console session has ended or is unknown: sign in again',
    example: [],
  }),
  invalidMetricsToken: define({
    code: 'GW_ERR_INVALID_METRICS_TOKEN',
    status: 401,
    description: 'GET /metrics was called without the METRICS_TOKEN bearer token it requires',
    message: () => 'Invalid metrics token: GET /metrics takes the METRICS_TOKEN setting as its bearer token',
    example: [],
  }),

  // 402
  spendLimitReached: define({
    code: 'GW_ERR_SPEND_LIMIT_REACHED',
    status: 402,
    description: "The API key's spending limit is spent for its window",
    message: (limit: number, reset: 'daily' | 'weekly' | 'monthly' | null) =>
      `API key spending limit of $${limit} ${reset ? LIMIT_WINDOWS[reset] : 'in total'} is reached`,
    example: [10, 'monthly'],
  }),
  /** A request not priced by the token (a video, a rerank) that a limit cannot cover; metadata names the limit. */
  spendLimitTooLow: withMetadata({
    code: 'GW_ERR_SPEND_LIMIT_TOO_LOW',
    status: 402,
    description: 'A request not priced by the token (a video, a rerank) could cost more than a limit has left',
    message: (cost: number, remaining: number, limit: string) =>
      `This request can cost up to $${Number(cost.toPrecision(6))}, more than the $${Number(remaining.toPrecision(6))} left of ${limit} once the requests in flight are counted`,
    example: [0.5, 0.25, '{limit}'],
  }),
  /** The organization's credit balance is spent (credits/): metadata has the totals. */
  creditsSpent: withMetadata({
    code: 'GW_ERR_CREDITS_SPENT',
    status: 402,
    description: "The organization's credit balance is spent",
    message: (usage: number, credits: number) =>
      `Insufficient credits: the organization has used $${Number(usage.toPrecision(6))} of the $${Number(credits.toPrecision(6))} granted to it; an operator grants more (model-gateway credits grant)`,
    example: [100, 100],
  }),
  /** A budget of the key's workspace is spent for its interval: metadata names the budget (limit, interval), its usage and when it resets. */
  workspaceBudgetSpent: withMetadata({
    code: 'GW_ERR_WORKSPACE_BUDGET_SPENT',
    status: 402,
    description: "A budget of the key's workspace is spent for its interval",
    message: (interval: string, limit: number, usage: number) =>
      `The workspace's ${interval} budget of $${limit} is spent: its keys have used $${Number(usage.toPrecision(6))}${interval === 'lifetime' ? '' : ' in this period'}`,
    example: ['daily', 100, 100],
  }),
  /** OpenRouter's words for a chat whose most possible cost a limit cannot cover; metadata names the limit. */
  tokensUnaffordable: withMetadata({
    code: 'GW_ERR_TOKENS_UNAFFORDABLE',
    status: 402,
    description: 'A chat could cost more than a limit (key, organization credits) has left',
    message: (requested: number, affordable: number) =>
      `This request requires more credits, or fewer max_tokens. You requested up to ${requested} tokens, but can only afford ${affordable}.`,
    example: [4096, 1200],
  }),

  workspaceHasActiveKeys: define({
    code: 'GW_ERR_WORKSPACE_HAS_ACTIVE_KEYS',
    status: 400,
    description: 'A workspace with active API keys was to be deleted',
    message: (workspace: string, count: number) =>
      `Workspace ${workspace} has ${count} active API key${count === 1 ? '' : 's'}: disable or delete ${count === 1 ? 'it' : 'them'} before deleting the workspace`,
    example: ['{workspace}', 2],
  }),
  workspaceHasInterns: define({
    code: 'GW_ERR_WORKSPACE_HAS_INTERNS',
    status: 400,
    description: 'A workspace holding interns was to be deleted',
    message: (workspace: string, count: number) =>
      `Workspace ${workspace} has ${count} intern${count === 1 ? '' : 's'}: delete ${count === 1 ? 'it' : 'them'} (DELETE /interns/{id}) before deleting the workspace`,
    example: ['{workspace}', 1],
  }),
  memberHasActiveKeys: define({
    code: 'GW_ERR_MEMBER_HAS_ACTIVE_KEYS',
    status: 400,
    description: 'A workspace member with active API keys in the workspace was to be removed',
    message: (userIds: string) =>
      `user_ids: ${userIds} still have active API keys in this workspace (keys they created): disable or delete them before removing the member`,
    example: ['{user ids}'],
  }),

  // 403
  managementKeyRequired: define({
    code: 'GW_ERR_MANAGEMENT_KEY_REQUIRED',
    status: 403,
    description: 'The operation needs a management key',
    message: () => 'Only management keys can perform this operation',
    example: [],
  }),
  organizationAdminRequired: define({
    code: 'GW_ERR_ORGANIZATION_ADMIN_REQUIRED',
    status: 403,
    description: "The operation needs a management key of the organization's owner or an admin, not one scoped to a workspace",
    message: (what: string) => `${what} needs a management key of an organization owner or admin (not one scoped to a workspace)`,
    example: ['{what}'],
  }),
  consoleRequestForged: define({
    code: 'GW_ERR_CONSOLE_REQUEST_FORGED',
    status: 403,
    description: "A change made with the console's session lacks its CSRF token or comes from another origin",
    message: (why: string) => `Console request refused: ${why}`,
    example: ['{why}'],
  }),
  operatorKeyRequired: define({
    code: 'GW_ERR_OPERATOR_KEY_REQUIRED',
    status: 403,
    description: "The operation needs a management key of the operator's (default) organization",
    message: (what: string) => `Only the operator's management keys (of the default organization) can ${what}`,
    example: ['{what}'],
  }),
  organizationKeyRequired: define({
    code: 'GW_ERR_ORGANIZATION_KEY_REQUIRED',
    status: 403,
    description: "The operation is the organization's: a management key scoped to one workspace cannot perform it",
    message: (what: string) => `Only an organization-wide management key can ${what}; this key manages one workspace`,
    example: ['{what}'],
  }),
  invalidAuthorizationCode: define({
    code: 'GW_ERR_INVALID_AUTHORIZATION_CODE',
    status: 403,
    description: 'The PKCE authorization code is unknown, expired or used',
    message: () => 'Authorization code is invalid, expired or already used',
    example: [],
  }),
  codeVerifierMismatch: define({
    code: 'GW_ERR_CODE_VERIFIER_MISMATCH',
    status: 403,
    description: "The PKCE code_verifier does not match the code's challenge",
    message: (detail: string) => `PKCE verification failed: ${detail}`,
    example: ['{detail}'],
  }),
  /** PKCE: the key creating a code, or the one that created it, may not mint a key (disabled, expired, limit spent, deleted). */
  mintingRefused: define({
    code: 'GW_ERR_KEY_MINTING_REFUSED',
    status: 403,
    description: 'The key behind an authorization code may not create another key (disabled, expired, limit spent, deleted)',
    message: (subject: string, why: string) => `${subject} ${why}: it cannot create another key`,
    example: ['{subject}', '{why}'],
  }),
  /** Spec 7.2: metadata.patterns lists what matched (never the matched text). */
  guardrailBlocked: withMetadata({
    code: 'GW_ERR_GUARDRAIL_BLOCKED',
    status: 403,
    description: 'A guardrail blocked the request (metadata.patterns lists what matched)',
    message: (guardrail: string, detail: string) => `Request blocked by guardrail ${guardrail}: ${detail}`,
    example: ['{guardrail}', '{detail}'],
  }),
  moderationFlagged: withMetadata({
    code: 'GW_ERR_MODERATION_FLAGGED',
    status: 403,
    description: 'The moderation plugin flagged the input',
    message: (categories: string) => `Request blocked by moderation: input flagged for ${categories}`,
    example: ['{categories}'],
  }),

  defaultWorkspaceUndeletable: define({
    code: 'GW_ERR_DEFAULT_WORKSPACE_UNDELETABLE',
    status: 403,
    description: "The organization's default workspace was to be deleted: it holds every member and is never the last to go",
    message: (workspace: string) =>
      `Workspace ${workspace} is the organization's default workspace, which cannot be deleted (it holds every member implicitly)`,
    example: ['{workspace}'],
  }),

  // 404
  routeNotFound: define({
    code: 'GW_ERR_ROUTE_NOT_FOUND',
    status: 404,
    description: 'No route has this method and path',
    message: (method: string, url: string) => `Route ${method} ${url} not found`,
    example: ['GET', '/api/v1/nothing'],
  }),
  notFound: define({
    code: 'GW_ERR_NOT_FOUND',
    status: 404,
    description: "The resource named does not exist (or is not the caller's)",
    message: (what: string) => `${what} not found`,
    example: ['{what}'],
  }),
  contentNotStored: define({
    code: 'GW_ERR_CONTENT_STORAGE_OFF',
    status: 404,
    description: "Generation content was asked for, but the organization's content storage is off",
    message: () =>
      "Generation content is not stored: this organization's content storage is off (store_content, PATCH /organization/settings)",
    example: [],
  }),
  noStoredContent: define({
    code: 'GW_ERR_NO_STORED_CONTENT',
    status: 404,
    description: 'No content was stored for this generation',
    message: (id: string) => `No content was stored for generation ${id}: content storage was off when it ran, or it was not a chat`,
    example: ['{id}'],
  }),
  modelNotFound: define({
    code: 'GW_ERR_MODEL_NOT_FOUND',
    status: 404,
    description: 'The model does not exist or is not enabled on this gateway (the message suggests the nearest id when one is close)',
    message: (model: string, closest?: string) =>
      `Model ${model} does not exist or is not enabled on this gateway${closest ? `: did you mean ${closest}?` : ''}`,
    example: ['sim/chta', 'sim/chat'],
  }),
  routerFoundNoModel: define({
    code: 'GW_ERR_ROUTER_FOUND_NO_MODEL',
    status: 404,
    description: 'A router plugin found no model for the request',
    message: (plugin: string, detail: string) => `The ${plugin} plugin found no model for this request: ${detail}`,
    example: ['{plugin}', '{detail}'],
  }),
  /** Provider preferences removed every endpoint; the metadata lists the candidates and why each was dropped. */
  noEndpointMatchesPreferences: withMetadata({
    code: 'GW_ERR_NO_ENDPOINT_MATCHES_PREFERENCES',
    status: 404,
    description: "The request's provider preferences removed every endpoint of the model (metadata says why each)",
    message: (detail: string) => detail,
    example: ['{detail}'],
  }),

  // 408
  clientTimeout: define({
    code: 'GW_ERR_REQUEST_TIMEOUT',
    status: 408,
    description: 'The request did not arrive within the client timeouts',
    message: (headersMs: number, bodyMs: number) =>
      `The request did not arrive in time: its headers must arrive within ${headersMs} ms of its first byte, and its body within ${bodyMs} ms more`,
    example: [30000, 30000],
  }),

  // 409
  destinationLimit: define({
    code: 'GW_ERR_DESTINATION_LIMIT',
    status: 409,
    description: 'The workspace already has the most observability destinations of this type',
    message: (max: number, type: string) => `A workspace has at most ${max} observability destinations of type ${type}; delete one first`,
    example: [5, 'webhook'],
  }),
  presetExists: define({
    code: 'GW_ERR_PRESET_EXISTS',
    status: 409,
    description: 'A preset with this slug already exists',
    message: (slug: string) => `Preset ${slug} already exists`,
    example: ['{slug}'],
  }),
  workspaceSlugTaken: define({
    code: 'GW_ERR_WORKSPACE_SLUG_TAKEN',
    status: 409,
    description: 'Another workspace of the organization has this slug',
    message: (slug: string) => `slug ${slug} is taken: another workspace of this organization has it`,
    example: ['{slug}'],
  }),
  scimMappingExists: define({
    code: 'GW_ERR_SCIM_MAPPING_EXISTS',
    status: 409,
    description: 'A mapping of this SCIM group to this workspace already exists',
    message: (groupId: string, workspaceId: string) =>
      `SCIM group ${groupId} is already mapped to workspace ${workspaceId}; change its role with PATCH /scim/group-mappings/{id}`,
    example: ['{scim_group_id}', '{workspace_id}'],
  }),
  scimConflict: define({
    code: 'GW_ERR_SCIM_CONFLICT',
    status: 409,
    description: "A SCIM resource's unique attribute (userName) is taken in the organization",
    message: (detail: string) => detail,
    example: ['userName alice@example.com is already provisioned'],
  }),
  authorizationCodeConflict: define({
    code: 'GW_ERR_AUTHORIZATION_CODE_EXISTS',
    status: 409,
    description: 'An unused authorization code already exists for this code_challenge',
    message: () => 'An unused authorization code already exists for this code_challenge; use a fresh challenge',
    example: [],
  }),

  // 413
  payloadTooLarge: define({
    code: 'GW_ERR_BODY_TOO_LARGE',
    status: 413,
    description: 'The request body is larger than the body limit',
    message: (limit: number) => `Request body exceeds the ${limit}-byte limit`,
    example: [10485760],
  }),
  decisionStateTooLong: withMetadata({
    code: 'GW_ERR_DECISION_STATE_TOO_LONG',
    status: 413,
    description: "A decisions request's state, with its longest question, does not fit the context of any endpoint of its model",
    message: (model: string, tokens: number, context: number) =>
      `state is too long for ${model}: its longest question reads ${tokens} tokens, more than the model's ${context}-token context`,
    example: ['{model}', 140000, 128000],
  }),
  uploadTooLarge: define({
    code: 'GW_ERR_UPLOAD_TOO_LARGE',
    status: 413,
    description:
      'A multipart upload breaks one of its limits: the body or file size, the number of parts, files or fields, a field size or the size of a part’s headers',
    message: (detail: string) => `Upload too large: ${detail}`,
    example: ['the file exceeds the 26214400-byte limit (TRANSCRIPTION_MAX_BYTES)'],
  }),
  storageQuotaExceeded: withMetadata({
    code: 'GW_ERR_STORAGE_QUOTA_EXCEEDED',
    status: 413,
    description: "An upload would take the workspace's files past its storage quota (FILES_WORKSPACE_QUOTA_BYTES)",
    message: (quota: number, used: number) =>
      `Storage quota exceeded: the workspace's files may hold ${quota} bytes (FILES_WORKSPACE_QUOTA_BYTES) and hold ${used}; delete files to make room`,
    example: [10737418240, 10737000000],
  }),
  chunkExtensionsTooLarge: define({
    code: 'GW_ERR_CHUNK_EXTENSIONS_TOO_LARGE',
    status: 413,
    description: "The chunk extensions of a chunked body exceed Node's limit",
    message: (limit: number) => `The chunk extensions of the request body exceed the ${limit}-byte limit`,
    example: [16384],
  }),

  // 415
  notMultipart: define({
    code: 'GW_ERR_NOT_MULTIPART',
    status: 415,
    description: 'An upload route was sent neither multipart/form-data nor JSON',
    message: (type: string) => `The body must be multipart/form-data (a file upload) or JSON with base64 input_audio, not ${type}`,
    example: ['application/json'],
  }),

  unsupportedMediaType: define({
    code: 'GW_ERR_UNSUPPORTED_MEDIA_TYPE',
    status: 415,
    description: 'The body has a content type the route does not take (JSON, or multipart/form-data on an upload route)',
    message: (accepted: string, sent: string) => `Unsupported Media Type: the body must be ${accepted}, not ${sent}`,
    example: ['application/json', 'text/plain'],
  }),

  // 414, 431
  pathParameterTooLong: define({
    code: 'GW_ERR_PATH_PARAMETER_TOO_LONG',
    status: 414,
    description: 'A path parameter is longer than the router allows',
    message: (limit: number) => `A path parameter is longer than ${limit} characters`,
    example: [100],
  }),
  headersTooLarge: define({
    code: 'GW_ERR_HEADERS_TOO_LARGE',
    status: 431,
    description: "The request headers exceed Node's header size limit",
    message: (limit: number) => `The request headers exceed the ${limit}-byte limit`,
    example: [16384],
  }),

  // 429
  keyRateLimited: withMetadata({
    code: 'GW_ERR_KEY_RATE_LIMITED',
    status: 429,
    description: 'The API key made more requests than its rate limit allows (see Retry-After)',
    message: (requests: number, seconds: number) =>
      `Rate limit exceeded: an API key may make ${requests} requests per ${seconds} seconds; retry after the Retry-After header's seconds`,
    example: [100, 10],
  }),
  consoleSignInRateLimited: withMetadata({
    code: 'GW_ERR_CONSOLE_SIGN_IN_RATE_LIMITED',
    status: 429,
    description: 'Too many failed console sign-ins from one client address, or with one key prefix (see Retry-After)',
    message: (by: string, attempts: number, seconds: number) =>
      `Too many failed console sign-ins ${by}: ${attempts} are allowed per ${seconds} seconds; retry after the Retry-After header's seconds`,
    example: ['{by}', 20, 300],
  }),

  // Upstream failures after every attempt (spec 7.2), each with the attempts in metadata.
  upstreamFailed: withMetadata({
    code: 'GW_ERR_UPSTREAM_FAILED',
    status: 502,
    description: 'The provider failed: no connection, a broken or malformed answer, or a 5xx',
    message: (provider: string, detail: string) => `Provider ${provider} failed: ${detail}`,
    example: ['{provider}', '{detail}'],
  }),
  upstreamTimeout: withMetadata({
    code: 'GW_ERR_UPSTREAM_TIMEOUT',
    status: 408,
    description: 'The provider answered that the request timed out (its 408 or 504)',
    message: (detail: string) => `Upstream request timed out: ${detail}`,
    example: ['{detail}'],
  }),
  upstreamEdgeTimeout: withMetadata({
    code: 'GW_ERR_UPSTREAM_EDGE_TIMEOUT',
    status: 524,
    description: "The provider did not answer within the endpoint's timeout",
    message: (provider: string) => `Provider ${provider} did not answer in time`,
    example: ['{provider}'],
  }),
  upstreamOverloaded: withMetadata({
    code: 'GW_ERR_UPSTREAM_OVERLOADED',
    status: 529,
    description: 'The provider is overloaded (its 529)',
    message: (provider: string) => `Provider ${provider} is temporarily overloaded`,
    example: ['{provider}'],
  }),
  upstreamRateLimited: withMetadata({
    code: 'GW_ERR_UPSTREAM_RATE_LIMITED',
    status: 429,
    description: 'The provider is rate limiting the gateway (its 429)',
    message: (provider: string) => `Provider ${provider} is rate limiting requests; retry later`,
    example: ['{provider}'],
  }),
  /** The upstream refused the request itself (a 4xx other than 408/429): its status is passed on. */
  upstreamRefused: passingOn({
    code: 'GW_ERR_UPSTREAM_REFUSED',
    description: 'The provider refused the request itself (a 4xx other than 408 and 429): its status is passed on',
    message: (provider: string, detail: string) => `Provider ${provider} refused the request: ${detail}`,
    example: ['{provider}', '{detail}'],
  }),
  noEndpointAvailable: withMetadata({
    code: 'GW_ERR_NO_ENDPOINT_AVAILABLE',
    status: 503,
    description: 'No endpoint of the model could take the request (none planned, or every one answered 503)',
    message: (model: string) => `No provider endpoint is available for ${model}`,
    example: ['{model}'],
  }),
  moderationFailed: withMetadata({
    code: 'GW_ERR_MODERATION_FAILED',
    status: 502,
    description: 'The moderation provider failed',
    message: (provider: string, detail: string) => `Moderation provider ${provider} failed: ${detail}`,
    example: ['{provider}', '{detail}'],
  }),

  // 500
  internal: define({
    code: 'GW_ERR_INTERNAL',
    status: 500,
    description: 'An unexpected fault of the gateway (the log has its details)',
    message: () => 'Internal Server Error',
    example: [],
  }),

  // 503
  shuttingDown: define({
    code: 'GW_ERR_SHUTTING_DOWN',
    status: 503,
    description: 'The gateway is shutting down',
    message: () => 'Server is shutting down',
    example: [],
  }),
  containersUnavailable: define({
    code: 'GW_ERR_CONTAINERS_UNAVAILABLE',
    status: 503,
    description: 'Containers cannot run code on this gateway: its sandbox (bubblewrap) is missing or unusable',
    message: (why: string) => `Containers are not available on this gateway: ${why}. Code never runs unsandboxed`,
    example: ['{why}'],
  }),
  gatewayOutOfResources: withMetadata({
    code: 'GW_ERR_OUT_OF_RESOURCES',
    status: 503,
    description: 'The gateway could not make the upstream call (no file descriptor or memory left)',
    message: (detail: string) => `The gateway cannot reach providers right now: ${detail}; retry later`,
    example: ['{detail}'],
  }),
  databaseUnavailable: define({
    code: 'GW_ERR_DATABASE_UNAVAILABLE',
    status: 503,
    description: 'The request needs the database, which cannot be reached right now',
    message: () => 'The database is unavailable right now and this request needs it; retry later',
    example: [],
  }),
  notReady: withMetadata({
    code: 'GW_ERR_NOT_READY',
    status: 503,
    description: 'The readiness check failed (metadata has the phase and the checks)',
    message: (reason: string) => `Not ready: ${reason}`,
    example: ['{reason}'],
  }),

  // Plugins: web, web-fetch, file-parser, context-compression
  pluginEngineUnavailable: define({
    code: 'GW_ERR_PLUGIN_ENGINE_UNAVAILABLE',
    status: 400,
    description: "A plugin's engine named in the request is not available on this gateway",
    message: (field: string, engine: string, detail: string) => `${field} "${engine}" is not available on this gateway: ${detail}`,
    example: ['{field}', '{engine}', '{detail}'],
  }),
  fileUnreadable: define({
    code: 'GW_ERR_FILE_UNREADABLE',
    status: 400,
    description: 'A file part cannot be read: not a data or http(s) URL, not fetched, or not a readable PDF',
    message: (field: string, detail: string) => `${field} ${detail}`,
    example: ['{field}', '{detail}'],
  }),
  fileTypeUnsupported: define({
    code: 'GW_ERR_FILE_TYPE_UNSUPPORTED',
    status: 400,
    description: "An uploaded file's contents are of no type the files API takes",
    message: (accepted: string) => `file: its contents are of no type the files API takes (${accepted})`,
    example: ['a PDF, a PNG/JPEG/GIF/WebP image, …'],
  }),
  promptTooLong: withMetadata({
    code: 'GW_ERR_PROMPT_TOO_LONG',
    status: 400,
    description: "The prompt does not fit the model's context, even after context-compression",
    message: (tokens: number, budget: number) =>
      `The prompt is ${tokens} tokens even after context-compression, more than the ${budget} tokens the model's context leaves for it`,
    example: [140000, 128000],
  }),
  webSearchFailed: withMetadata({
    code: 'GW_ERR_WEB_SEARCH_FAILED',
    status: 502,
    description: "The web plugin's search engine failed",
    message: (engine: string, detail: string) => `Web search (${engine}) failed: ${detail}`,
    example: ['{engine}', '{detail}'],
  }),
  fusionModelUnavailable: define({
    code: 'GW_ERR_FUSION_MODEL_UNAVAILABLE',
    status: 400,
    description: 'A model the fusion plugin names is not served by this gateway',
    message: (field: string, model: string) => `${field}: model ${model} is not served by this gateway`,
    example: ['{field}', '{model}'],
  }),
  fusionPresetUnavailable: define({
    code: 'GW_ERR_FUSION_PRESET_UNAVAILABLE',
    status: 400,
    description: "None of a fusion preset's models is served by this gateway",
    message: (preset: string, models: string) =>
      `plugins fusion preset "${preset}": none of its models (${models}) is served by this gateway; name analysis_models and model`,
    example: ['{preset}', '{models}'],
  }),
  fusionPanelFailed: withMetadata({
    code: 'GW_ERR_FUSION_FAILED',
    status: 502,
    description: "The fusion plugin's panel or analyst failed",
    message: (detail: string) => `Fusion failed: ${detail}`,
    example: ['{detail}'],
  }),

  // Interns (spec 7.3): every status but 401 and 403 carries {reason, retryable}.
  internUnauthorized: define({
    code: 'GW_ERR_INTERN_UNAUTHORIZED',
    status: 401,
    description: 'An intern path was called without a valid API key',
    message: (detail: string) => `Invalid or missing API key: ${detail}`,
    example: ['{detail}'],
  }),
  internKeyCreatorNotMember: define({
    code: 'GW_ERR_KEY_CREATOR_NOT_MEMBER',
    status: 403,
    description: "The API key's creator is no longer a member of the organization",
    message: () =>
      "This API key's creator is no longer a member of the organization; an organization admin must reassign the key to an active member (PATCH /keys/{hash} with creator_user_id)",
    example: [],
  }),
  internBadRequest: intern({
    code: 'GW_ERR_INTERN_BAD_REQUEST',
    status: 400,
    description: 'An intern request is invalid',
    message: (detail: string) => detail,
    example: ['{detail}'],
  }),
  internNotFound: intern({
    code: 'GW_ERR_INTERN_NOT_FOUND',
    status: 404,
    description: "An intern, its session, or the programme is not the caller's",
    message: (what: string) => `${what} not found`,
    example: ['{what}'],
  }),
  internAcceptTimeout: intern({
    code: 'GW_ERR_INTERN_ACCEPT_TIMEOUT',
    status: 408,
    description: 'The invoke was not accepted in time',
    message: (seconds: number) => `The invoke could not be accepted within ${seconds} seconds`,
    example: [60],
  }),
  internNotReady: intern({
    code: 'GW_ERR_INTERN_NOT_READY',
    status: 409,
    description: 'The intern is not running',
    message: (status: string) => `The intern is not running (status ${status}); provision it first`,
    example: ['{status}'],
  }),
  internPayloadTooLarge: intern({
    code: 'GW_ERR_INTERN_BODY_TOO_LARGE',
    status: 413,
    description: "An intern request's body is larger than its limit",
    message: (limit: number) => `Request body exceeds the ${limit}-byte limit`,
    example: [1048576],
  }),
  internUnsupportedMediaType: intern({
    code: 'GW_ERR_INTERN_UNSUPPORTED_MEDIA_TYPE',
    status: 415,
    description: "An intern request's body is not JSON",
    message: (type: string) => `A request body must be sent as application/json, not ${type}`,
    example: ['{type}'],
  }),
  internRateLimited: intern({
    code: 'GW_ERR_INTERN_RATE_LIMITED',
    status: 429,
    description: 'The intern took all the turns it takes per minute',
    message: (turns: number) => `Too many intern turns: this intern takes ${turns} turns per minute; retry later`,
    example: [30],
  }),
  internLookupFailed: intern({
    code: 'GW_ERR_INTERN_LOOKUP_FAILED',
    status: 500,
    description: 'The intern could not be looked up',
    message: () => 'The intern could not be looked up',
    example: [],
  }),
  internUnreachable: intern({
    code: 'GW_ERR_INTERN_UNREACHABLE',
    status: 502,
    description: "The intern's process could not be reached",
    message: (detail: string) => `The intern could not be reached: ${detail}`,
    example: ['{detail}'],
  }),
  internBusy: intern({
    code: 'GW_ERR_INTERN_BUSY',
    status: 503,
    description: 'The intern cannot hold another run open across a question',
    message: (open: number) =>
      `The intern already holds ${open} run${open === 1 ? '' : 's'} open across a question and cannot hold another`,
    example: [1],
  }),
  internTimeout: intern({
    code: 'GW_ERR_INTERN_TIMEOUT',
    status: 504,
    description: 'The intern did not answer in time',
    message: () => 'The intern did not answer in time',
    example: [],
  }),
  /** A tool message on intern chat that answers nothing the session's run asked (the SDK's interaction reasons). */
  interactionUnknown: intern({
    code: 'GW_ERR_INTERACTION_UNKNOWN',
    status: 400,
    description: "A tool message answers an input the session's run did not ask for",
    message: (id: string) => `tool_call_id ${id} is not the input this session's run asked for`,
    example: ['{id}'],
    reason: { reason: 'interaction_unknown', retryable: false },
  }),
  interactionNotPending: intern({
    code: 'GW_ERR_INTERACTION_NOT_PENDING',
    status: 409,
    description: "A tool message answers a question, but the session's run is not waiting for one",
    message: () => "A tool message answers a question, but this session's run is not waiting for one",
    example: [],
    reason: { reason: 'interaction_not_pending', retryable: false },
  }),
  /** How an intern chat stream reports a run that did not finish (the SDK's InternChatStreamError reasons). */
  internRunFailed: intern({
    code: 'GW_ERR_INTERN_RUN_FAILED',
    status: 502,
    description: "The intern's run failed",
    message: (detail: string) => `The run failed: ${detail}`,
    example: ['{detail}'],
    reason: { reason: 'turn_failed', retryable: true },
  }),
  internRunEnded: intern({
    code: 'GW_ERR_INTERN_RUN_ENDED',
    status: 410,
    description: "The intern's run ended before it answered (stopped, deadline passed)",
    message: (reason: string, detail?: string) =>
      `The run ended (${reason === 'deadline' ? "the intern's execution deadline passed" : detail ? `${reason}: ${detail}` : reason})`,
    example: ['deadline'],
    reason: { reason: 'run_ended', retryable: false },
  }),
  /**
   * A chat stream that can no longer read its run's events (the runtime or the database failed):
   * the run's fate is unknown to the stream, unlike run_ended. 502 as intern_unreachable, the
   * status this failure would have had before the stream opened: the gateway lost its upstream.
   */
  internStreamSevered: intern({
    code: 'GW_ERR_INTERN_STREAM_SEVERED',
    status: 502,
    description: "An intern chat stream can no longer read its run's events",
    message: (detail: string) => `The stream of the run was severed: ${detail}`,
    example: ['{detail}'],
    reason: { reason: 'stream_severed', retryable: true },
  }),
  /** An intern create retried under its Idempotency-Key with another body: 409, as the SDK's createIntern errors allow (not 422). */
  internIdempotencyConflict: intern({
    code: 'GW_ERR_IDEMPOTENCY_KEY_REUSED',
    status: 409,
    description: 'An Idempotency-Key was used again for an intern create with another body',
    message: () => 'This Idempotency-Key was used for a create with another body; send a new key to create another intern',
    example: [],
    reason: { reason: 'idempotency_key_reused', retryable: false },
  }),
  /** A lifecycle operation the intern's status does not allow (e.g. provisioning a running intern). */
  internStateConflict: intern({
    code: 'GW_ERR_INTERN_STATE_CONFLICT',
    status: 409,
    description: "A lifecycle operation the intern's status does not allow",
    message: (status: string, action: string) => `The intern cannot be ${action} while its status is ${status}`,
    example: ['{status}', '{action}'],
    reason: { reason: 'conflict', retryable: false },
  }),

  /** A 4xx that Fastify or one of its plugins raised before the gateway's own checks: its status and words are passed on. */
  requestRejected: passingOn({
    code: 'GW_ERR_REQUEST_REJECTED',
    description: 'The HTTP framework refused the request with a client error of its own (its status and message are passed on)',
    message: (detail: string) => detail,
    example: ['{detail}'],
  }),
} as const;

/** The catalogue as rows: what docs/errors.md lists and its test checks. */
export const ERROR_CATALOGUE: readonly CatalogueEntry[] = Object.values(Errors).map(({ code, status, description, example }) => ({
  code,
  status,
  description,
  example,
}));

/**
 * A generic error (validation, body size, key rate limit) in spec 7.3's terms
 * on an intern path: 401 says "invalid or missing API key", 401 and 403 carry
 * no metadata, every other listed status carries its reason and retryable.
 * The code stays the error's own: it says what happened, the wording is the path's.
 */
export function asInternError(error: GatewayError): GatewayError {
  if (error.statusCode === 401)
    return error.message.startsWith('Invalid or missing API key')
      ? error
      : error.reworded(Errors.internUnauthorized(error.message).message, undefined);
  if (error.statusCode === 403) return error.metadata ? error.reworded(error.message, undefined) : error;
  const reasons = INTERN_ERROR_REASONS[error.statusCode];
  if (!reasons || (error.metadata && 'reason' in error.metadata)) return error;
  return error.reworded(error.message, { ...error.metadata, ...reasons });
}
