import { describe, expect, it } from 'vitest';
import { Errors } from '../http/errors.js';
import { UpstreamError } from '../protocol/upstream.js';
import { nextStep } from './retry-policy.js';

const budget = { maxWaitMs: 2000, remainingMs: 5000 };
const status = (s: number, retryAfterMs?: number) =>
  new UpstreamError('status', `HTTP ${s}`, { status: s, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

describe('nextStep', () => {
  it.each([408, 429, 500, 502, 503, 504, 529])('moves on after HTTP %i', (s) => {
    expect(nextStep(status(s), budget, false)).toEqual({ action: 'next' });
  });

  it.each([400, 401, 403, 404, 413, 422])('returns HTTP %i, caused by the request, without retrying', (s) => {
    expect(nextStep(status(s), budget, false)).toEqual({ action: 'stop' });
  });

  it.each(['connection', 'timeout', 'malformed'] as const)('moves on after a %s failure', (failure) => {
    expect(nextStep(new UpstreamError(failure, 'x'), budget, false)).toEqual({ action: 'next' });
  });

  it('stops when our side cancelled', () => {
    expect(nextStep(new UpstreamError('aborted', 'x'), budget, false)).toEqual({ action: 'stop' });
  });

  it('waits out a short Retry-After on the same endpoint, once', () => {
    expect(nextStep(status(429, 500), budget, false)).toEqual({ action: 'retry-same', afterMs: 500 });
    expect(nextStep(status(429, 500), budget, true)).toEqual({ action: 'next' });
  });

  it('does not wait out a Retry-After beyond the budget', () => {
    expect(nextStep(status(503, 30_000), budget, false)).toEqual({ action: 'next' });
    expect(nextStep(status(503, 1500), { maxWaitMs: 2000, remainingMs: 1000 }, false)).toEqual({ action: 'next' });
  });

  it('moves on after an unknown error', () => {
    expect(nextStep(new Error('bug'), budget, false)).toEqual({ action: 'next' });
  });

  it('stops on the gateway’s own answer and on a process out of descriptors: another endpoint would not change them', () => {
    expect(nextStep(Errors.invalidRequest('bad'), budget, false)).toEqual({ action: 'stop' });
    expect(nextStep(new UpstreamError('local', 'EMFILE'), budget, false)).toEqual({ action: 'stop' });
  });
});

describe('isProviderFault', () => {
  it('counts outages against the provider, not request errors or our own cancellations', async () => {
    const { isProviderFault } = await import('./retry-policy.js');
    expect(isProviderFault(status(503))).toBe(true);
    expect(isProviderFault(status(429))).toBe(true);
    expect(isProviderFault(new UpstreamError('timeout', 'x'))).toBe(true);
    expect(isProviderFault(status(400))).toBe(false);
    expect(isProviderFault(new UpstreamError('aborted', 'x'))).toBe(false);
    expect(isProviderFault(new UpstreamError('local', 'EMFILE'))).toBe(false);
    expect(isProviderFault(new RangeError('Maximum call stack size exceeded'))).toBe(false);
  });
});
