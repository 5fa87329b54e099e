import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../providers/types.js';
import { finalError, type AttemptOutcome } from './attempt-outcome.js';

const attempt = (provider: string, status?: number): AttemptOutcome => ({
  model: 'acme/fast-1',
  provider,
  status: 'failed',
  error: { failure: status ? 'status' : 'connection', message: 'x', ...(status ? { status } : {}) },
  latency_ms: 3,
});
const httpError = (status: number, body: unknown = { error: { message: 'upstream says no' } }) =>
  new UpstreamError('status', `HTTP ${status}`, { status, body });

describe('finalError', () => {
  it('is 502 naming the provider with its raw error for a provider fault', () => {
    const error = finalError('acme/fast-1', [attempt('acme', 500)], httpError(500));
    expect(error.statusCode).toBe(502);
    expect(error.message).toBe('Provider acme failed: HTTP 500');
    expect(error.metadata).toMatchObject({ provider_name: 'acme', raw: { error: { message: 'upstream says no' } }, attempts: [{ provider: 'acme' }] });
  });

  it.each([
    [new UpstreamError('timeout', 'no answer in 30000 ms'), 524],
    [httpError(408), 408],
    [httpError(504), 408],
    [httpError(429), 429],
    [httpError(529), 529],
    [new UpstreamError('connection', 'ECONNREFUSED'), 502],
    [new UpstreamError('malformed', 'not JSON'), 502],
    [httpError(400), 400],
    [httpError(422), 422],
  ])('maps %s to %i', (error, status) => {
    expect(finalError('acme/fast-1', [attempt('acme')], error).statusCode).toBe(status);
  });

  it('is 503 when every endpoint was unavailable', () => {
    expect(finalError('m', [attempt('a', 503), attempt('b', 503)], httpError(503)).statusCode).toBe(503);
    expect(finalError('m', [], undefined).statusCode).toBe(503);
  });
});
