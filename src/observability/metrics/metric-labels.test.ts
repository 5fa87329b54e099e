import { describe, expect, it } from 'vitest';
import { Errors } from '../../http/errors.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { attemptOutcome } from './metric-labels.js';

describe('attemptOutcome', () => {
  it('names an upstream status by its class, 429 apart', () => {
    expect(attemptOutcome(new UpstreamError('status', 'limited', { status: 429 }))).toBe('http_429');
    expect(attemptOutcome(new UpstreamError('status', 'refused', { status: 400 }))).toBe('http_4xx');
    expect(attemptOutcome(new UpstreamError('status', 'down', { status: 503 }))).toBe('http_5xx');
  });

  it("names other upstream failures by their kind, and the gateway's own apart", () => {
    expect(attemptOutcome(new UpstreamError('timeout', 'slow'))).toBe('timeout');
    expect(attemptOutcome(new UpstreamError('connection', 'reset'))).toBe('connection');
    expect(attemptOutcome(Errors.internal())).toBe('gateway');
    expect(attemptOutcome(new Error('bug'))).toBe('internal');
  });
});
