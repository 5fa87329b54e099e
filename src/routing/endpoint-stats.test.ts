import { describe, expect, it } from 'vitest';
import { EndpointStats, STATS_WINDOW, servedSample, summarize } from './endpoint-stats.js';

describe('endpoint stats', () => {
  it('summarizes with nearest-rank percentiles and a mean', () => {
    expect(summarize([4, 1, 3, 2])).toEqual({ mean: 2.5, p50: 2, p75: 3, p90: 4, p99: 4 });
  });

  it('measures a stream’s throughput over its generation time only', () => {
    expect(servedSample(3000, 1000, 100)).toEqual({ latencyMs: 3000, ttftMs: 1000, throughput: 50 });
    expect(servedSample(2000, null, 100)).toEqual({ latencyMs: 2000, ttftMs: 2000, throughput: 50 });
    expect(servedSample(2000, null, 0)).toEqual({ latencyMs: 2000, ttftMs: 2000 });
  });

  it('keeps a moving window per endpoint', () => {
    const stats = new EndpointStats();
    for (let i = 0; i < STATS_WINDOW + 10; i++) stats.record('m@a', { latencyMs: i, ttftMs: i }, i);
    expect(stats.figures('m@a')).toMatchObject({ samples: STATS_WINDOW, latencyMs: { p50: 59 } });
    expect(stats.figures('m@b')).toBeUndefined();
    expect(stats.samples('m@a')).toBe(STATS_WINDOW);
    expect(stats.samples('m@b')).toBe(0);
  });

  it('recomputes figures after a new sample, not before', () => {
    const stats = new EndpointStats();
    stats.record('m@a', { latencyMs: 10, ttftMs: 10 }, 0);
    const first = stats.figures('m@a');
    expect(stats.figures('m@a')).toBe(first);
    stats.record('m@a', { latencyMs: 30, ttftMs: 30 }, 1);
    expect(stats.figures('m@a')).not.toBe(first);
    expect(stats.figures('m@a')?.latencyMs.mean).toBe(20);
  });

  it('computes figures over the requests served since a time, none when there is none', () => {
    const stats = new EndpointStats();
    stats.record('m@a', { latencyMs: 100, ttftMs: 50 }, 1_000);
    stats.record('m@a', { latencyMs: 300, ttftMs: 70 }, 2_000);
    expect(stats.figuresSince('m@a', 1_500)).toMatchObject({ samples: 1, ttftMs: { p50: 70 } });
    expect(stats.figuresSince('m@a', 0)).toMatchObject({ samples: 2, latencyMs: { mean: 200 } });
    expect(stats.figuresSince('m@a', 2_001)).toBeUndefined();
  });
});
