import { describe, expect, it } from 'vitest';
import { EndpointHealth, UNHEALTHY_FOR_MS } from './endpoint-health.js';

describe('EndpointHealth', () => {
  it('marks a provider unhealthy for 30 seconds after a failure', () => {
    let now = 1_000_000;
    const health = new EndpointHealth(() => now);
    health.recordFailure('a');
    expect(health.unhealthy()).toEqual(new Set(['a']));
    expect(health.isHealthy('a')).toBe(false);
    now += UNHEALTHY_FOR_MS;
    expect(health.unhealthy()).toEqual(new Set());
    expect(health.isHealthy('a')).toBe(true);
  });

  it('is healthy again after a success', () => {
    const health = new EndpointHealth(() => 0);
    health.recordFailure('a');
    health.recordSuccess('a');
    expect(health.isHealthy('a')).toBe(true);
  });

  it('counts served and failed attempts for uptime, leaving rate-limited ones out', () => {
    const health = new EndpointHealth(() => 1_000_000);
    health.recordSuccess('a');
    health.recordFailure('a');
    health.recordFailure('a', { rateLimited: true });
    expect(health.isHealthy('a')).toBe(false);
    expect(health.attemptsOver('a', 5 * 60_000)).toEqual({ served: 1, attempts: 2 });
  });

  it("keeps each endpoint's last failure, with its status when the upstream answered one, past its recovery", () => {
    let now = 1_000;
    const health = new EndpointHealth(() => now);
    expect(health.lastFailure('a')).toBeUndefined();
    health.recordFailure('a', { error: { status: 503, message: 'overloaded' } });
    now = 2_000;
    health.recordFailure('a', { error: { message: 'connection reset' } });
    health.recordFailure('b', { error: { status: 500, message: 'boom' } });
    health.recordSuccess('a');
    expect(health.lastFailure('a')).toEqual({ at: 2_000, message: 'connection reset' });
    expect(health.lastFailure('b')).toEqual({ at: 2_000, status: 500, message: 'boom' });
  });
});
