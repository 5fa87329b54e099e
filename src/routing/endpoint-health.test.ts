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
});
