import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../protocol/gateway-error.js';
import { asInternError, ERROR_CATALOGUE, Errors } from './errors.js';

/**
 * Every code name ever given. A name never changes and is never reused
 * (clients and dashboards match on it): a new entry adds its name here, and
 * no name leaves this list.
 */
const GIVEN_NAMES: readonly string[] = [
  'GW_ERR_INVALID_METRICS_TOKEN',
  'GW_ERR_CONSOLE_SESSION_ENDED',
  'GW_ERR_CONSOLE_REQUEST_FORGED',
  'GW_ERR_INVALID_REQUEST',
  'GW_ERR_MALFORMED_JSON',
  'GW_ERR_ROUTER_PLUGIN_DISABLED',
  'GW_ERR_UNSAFE_PATTERN',
  'GW_ERR_MODERATION_UNAVAILABLE',
  'GW_ERR_JSON_TOO_DEEP',
  'GW_ERR_PROTOTYPE_KEY',
  'GW_ERR_MALFORMED_HTTP',
  'GW_ERR_MALFORMED_URL',
  'GW_ERR_MISSING_AUTHENTICATION',
  'GW_ERR_INVALID_API_KEY',
  'GW_ERR_API_KEY_DISABLED',
  'GW_ERR_API_KEY_EXPIRED',
  'GW_ERR_SPEND_LIMIT_REACHED',
  'GW_ERR_SPEND_LIMIT_TOO_LOW',
  'GW_ERR_CREDITS_SPENT',
  'GW_ERR_WORKSPACE_BUDGET_SPENT',
  'GW_ERR_TOKENS_UNAFFORDABLE',
  'GW_ERR_MANAGEMENT_KEY_REQUIRED',
  'GW_ERR_OPERATOR_KEY_REQUIRED',
  'GW_ERR_ORGANIZATION_KEY_REQUIRED',
  'GW_ERR_INVALID_AUTHORIZATION_CODE',
  'GW_ERR_CODE_VERIFIER_MISMATCH',
  'GW_ERR_KEY_MINTING_REFUSED',
  'GW_ERR_GUARDRAIL_BLOCKED',
  'GW_ERR_MODERATION_FLAGGED',
  'GW_ERR_ROUTE_NOT_FOUND',
  'GW_ERR_NOT_FOUND',
  'GW_ERR_CONTENT_STORAGE_OFF',
  'GW_ERR_NO_STORED_CONTENT',
  'GW_ERR_MODEL_NOT_FOUND',
  'GW_ERR_ROUTER_FOUND_NO_MODEL',
  'GW_ERR_NO_ENDPOINT_MATCHES_PREFERENCES',
  'GW_ERR_REQUEST_TIMEOUT',
  'GW_ERR_DESTINATION_LIMIT',
  'GW_ERR_PRESET_EXISTS',
  'GW_ERR_AUTHORIZATION_CODE_EXISTS',
  'GW_ERR_BODY_TOO_LARGE',
  'GW_ERR_UPLOAD_TOO_LARGE',
  'GW_ERR_DECISION_STATE_TOO_LONG',
  'GW_ERR_NOT_MULTIPART',
  'GW_ERR_UNSUPPORTED_MEDIA_TYPE',
  'GW_ERR_CHUNK_EXTENSIONS_TOO_LARGE',
  'GW_ERR_PATH_PARAMETER_TOO_LONG',
  'GW_ERR_HEADERS_TOO_LARGE',
  'GW_ERR_KEY_RATE_LIMITED',
  'GW_ERR_CONSOLE_SIGN_IN_RATE_LIMITED',
  'GW_ERR_UPSTREAM_FAILED',
  'GW_ERR_UPSTREAM_TIMEOUT',
  'GW_ERR_UPSTREAM_EDGE_TIMEOUT',
  'GW_ERR_UPSTREAM_OVERLOADED',
  'GW_ERR_UPSTREAM_RATE_LIMITED',
  'GW_ERR_UPSTREAM_REFUSED',
  'GW_ERR_NO_ENDPOINT_AVAILABLE',
  'GW_ERR_MODERATION_FAILED',
  'GW_ERR_INTERNAL',
  'GW_ERR_SHUTTING_DOWN',
  'GW_ERR_OUT_OF_RESOURCES',
  'GW_ERR_CONTAINERS_UNAVAILABLE',
  'GW_ERR_DATABASE_UNAVAILABLE',
  'GW_ERR_NOT_READY',
  'GW_ERR_PLUGIN_ENGINE_UNAVAILABLE',
  'GW_ERR_FILE_UNREADABLE',
  'GW_ERR_PROMPT_TOO_LONG',
  'GW_ERR_WEB_SEARCH_FAILED',
  'GW_ERR_FUSION_MODEL_UNAVAILABLE',
  'GW_ERR_FUSION_PRESET_UNAVAILABLE',
  'GW_ERR_FUSION_FAILED',
  'GW_ERR_INTERN_UNAUTHORIZED',
  'GW_ERR_KEY_CREATOR_NOT_MEMBER',
  'GW_ERR_INTERN_BAD_REQUEST',
  'GW_ERR_INTERN_NOT_FOUND',
  'GW_ERR_INTERN_ACCEPT_TIMEOUT',
  'GW_ERR_INTERN_NOT_READY',
  'GW_ERR_INTERN_BODY_TOO_LARGE',
  'GW_ERR_INTERN_UNSUPPORTED_MEDIA_TYPE',
  'GW_ERR_INTERN_RATE_LIMITED',
  'GW_ERR_INTERN_LOOKUP_FAILED',
  'GW_ERR_INTERN_UNREACHABLE',
  'GW_ERR_INTERN_BUSY',
  'GW_ERR_INTERN_TIMEOUT',
  'GW_ERR_INTERACTION_UNKNOWN',
  'GW_ERR_INTERACTION_NOT_PENDING',
  'GW_ERR_INTERN_RUN_FAILED',
  'GW_ERR_INTERN_RUN_ENDED',
  'GW_ERR_INTERN_STREAM_SEVERED',
  'GW_ERR_IDEMPOTENCY_KEY_REUSED',
  'GW_ERR_INTERN_STATE_CONFLICT',
  'GW_ERR_REQUEST_REJECTED',
  'GW_ERR_WORKSPACE_HAS_ACTIVE_KEYS',
  'GW_ERR_WORKSPACE_HAS_INTERNS',
  'GW_ERR_MEMBER_HAS_ACTIVE_KEYS',
  'GW_ERR_DEFAULT_WORKSPACE_UNDELETABLE',
  'GW_ERR_WORKSPACE_SLUG_TAKEN',
  'GW_ERR_SCIM_INVALID',
  'GW_ERR_SCIM_TOKEN_INVALID',
  'GW_ERR_ORGANIZATION_ADMIN_REQUIRED',
  'GW_ERR_SCIM_MAPPING_EXISTS',
  'GW_ERR_SCIM_CONFLICT',
  'GW_ERR_DECISION_STATE_TOO_LONG',
  'GW_ERR_STORAGE_QUOTA_EXCEEDED',
  'GW_ERR_FILE_TYPE_UNSUPPORTED',
];

describe('the error catalogue', () => {
  it('names every entry once, as GW_ERR_ and upper snake case', () => {
    const codes = ERROR_CATALOGUE.map((e) => e.code);
    expect(codes.filter((code, i) => codes.indexOf(code) !== i)).toEqual([]);
    expect(codes.filter((code) => !/^GW_ERR_[A-Z0-9]+(_[A-Z0-9]+)*$/.test(code))).toEqual([]);
  });

  it('keeps every name it ever gave, and lists each new one', () => {
    const codes = new Set<string>(ERROR_CATALOGUE.map((e) => e.code));
    expect(
      GIVEN_NAMES.filter((name) => !codes.has(name)),
      'a code name was renamed or removed: names never change',
    ).toEqual([]);
    expect(
      [...codes].filter((code) => !GIVEN_NAMES.includes(code)),
      'a new code name: add it to GIVEN_NAMES',
    ).toEqual([]);
  });

  it('gives every entry an error status, a one-line description and an example message', () => {
    for (const entry of ERROR_CATALOGUE) {
      expect(entry.status === '4xx' || (entry.status >= 400 && entry.status < 600), entry.code).toBe(true);
      expect(entry.description, entry.code).toMatch(/^[A-Z][^\n]+[^.]$/);
      expect(entry.example.length, entry.code).toBeGreaterThan(0);
    }
  });

  it('makes errors that carry the code and status of their entry', () => {
    const reached = Errors.spendLimitReached(10, 'monthly');
    expect(isGatewayError(reached)).toBe(true);
    expect([reached.code, reached.statusCode, reached.message]).toEqual([
      'GW_ERR_SPEND_LIMIT_REACHED',
      402,
      'API key spending limit of $10 per month is reached',
    ]);
    const blocked = Errors.guardrailBlocked({ patterns: ['x'] }, 'g', 'matched');
    expect([blocked.code, blocked.statusCode, blocked.metadata]).toEqual([
      Errors.guardrailBlocked.code,
      Errors.guardrailBlocked.status,
      { patterns: ['x'] },
    ]);
    const busy = Errors.internBusy(2);
    expect([busy.code, busy.statusCode, busy.metadata]).toEqual(['GW_ERR_INTERN_BUSY', 503, { reason: 'busy', retryable: true }]);
    // The entries that pass a status on take it from their caller.
    const refused = Errors.upstreamRefused(422, { attempts: [] }, 'p', 'no');
    expect([refused.code, refused.statusCode]).toEqual(['GW_ERR_UPSTREAM_REFUSED', 422]);
    const rejected = Errors.requestRejected(415, undefined, 'Unsupported Media Type');
    expect([rejected.code, rejected.statusCode, rejected.message, rejected.metadata]).toEqual([
      'GW_ERR_REQUEST_REJECTED',
      415,
      'Unsupported Media Type',
      undefined,
    ]);
  });

  it('keeps the code of an error told in other words: spec 7.3 intern terms, service metadata', () => {
    const missing = asInternError(Errors.missingAuthentication());
    expect([missing.code, missing.message]).toEqual([
      'GW_ERR_MISSING_AUTHENTICATION',
      'Invalid or missing API key: Missing Authentication header',
    ]);
    expect(asInternError(Errors.invalidRequest('x')).code).toBe('GW_ERR_INVALID_REQUEST');
    expect(Errors.internal().withServiceMetadata({}).code).toBe('GW_ERR_INTERNAL');
  });
});
