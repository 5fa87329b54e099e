import { describe, expect, it } from 'vitest';
import { Errors } from '../http/errors.js';
import { UpstreamError } from '../protocol/upstream.js';
import { type AttemptOutcome, finalError } from './attempt-outcome.js';

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
    expect(error.metadata).toMatchObject({
      provider_name: 'acme',
      raw: { error: { message: 'upstream says no' } },
      attempts: [{ provider: 'acme' }],
    });
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

  it('keeps a failure raised inside the gateway its own: its answer as it is, any other fault a 500, never a 502', () => {
    const refused = Errors.invalidRequest('tools[0] is wrong');
    expect(finalError('m', [attempt('acme')], refused)).toBe(refused);
    const fault = finalError('m', [attempt('acme')], new RangeError('Maximum call stack size exceeded'));
    expect(fault.statusCode).toBe(500);
    expect(fault.message).toBe('Internal Server Error');
  });

  it('is 503 when the gateway could not open a connection', () => {
    const error = finalError('m', [attempt('acme')], new UpstreamError('local', 'the gateway could not open a connection (EMFILE)'));
    expect(error.statusCode).toBe(503);
    expect(error.message).toBe(
      'The gateway cannot reach providers right now: the gateway could not open a connection (EMFILE); retry later',
    );
  });

  it('is 503 when every endpoint was unavailable', () => {
    expect(finalError('m', [attempt('a', 503), attempt('b', 503)], httpError(503)).statusCode).toBe(503);
    expect(finalError('m', [], undefined).statusCode).toBe(503);
  });
});
