import { describe, expect, it } from 'vitest';
import { GatewayError } from '../protocol/gateway-error.js';
import { asInternError, Errors } from './errors.js';

describe('intern errors (spec 7.3)', () => {
  it('every catalogue entry but 401/403 carries its reason and retryable', () => {
    expect(Errors.internNotFound('Intern').metadata).toEqual({ reason: 'not_found', retryable: false });
    expect(Errors.internNotReady('queued').metadata).toEqual({ reason: 'intern_not_ready', retryable: true });
    expect(Errors.internLookupFailed().metadata).toEqual({ reason: 'intern_unreachable', retryable: true });
    expect(Errors.internBusy(1).metadata).toEqual({ reason: 'busy', retryable: true });
    expect(Errors.internTimeout().metadata).toEqual({ reason: 'timeout', retryable: true });
    expect(Errors.internKeyCreatorNotMember().metadata).toBeUndefined();
    expect(Errors.internKeyCreatorNotMember().message).toMatch(/organization admin must reassign the key to an active member/);
  });

  it('turns generic errors into intern ones', () => {
    const invalid = asInternError(Errors.invalidRequest('input must be at least 1 character long'));
    expect([invalid.statusCode, invalid.message, invalid.metadata]).toEqual([
      400,
      'input must be at least 1 character long',
      { reason: 'bad_request', retryable: false },
    ]);
    expect(asInternError(Errors.payloadTooLarge(1_048_576)).metadata).toEqual({ reason: 'payload_too_large', retryable: false });
    const missing = asInternError(Errors.missingAuthentication());
    expect([missing.statusCode, missing.message, missing.metadata]).toEqual([
      401,
      'Invalid or missing API key: Missing Authentication header',
      undefined,
    ]);
    expect(asInternError(Errors.guardrailBlocked({ patterns: [] }, 'g', 'x')).metadata).toBeUndefined();
    const limited = asInternError(Errors.keyRateLimited({ retry_after_seconds: 3 }, 1, 1));
    expect(limited.metadata).toEqual({ retry_after_seconds: 3, reason: 'rate_limited', retryable: true });
    const kept = asInternError(Errors.internBusy(2));
    expect(kept.metadata).toEqual({ reason: 'busy', retryable: true });
    expect(asInternError(new GatewayError('GW_ERR_TEAPOT', 418, 'teapot')).metadata).toBeUndefined();
  });
});
