import { describe, expect, it } from 'vitest';
import { MAX_SERIES, pivot, totals } from './series';

const DAY = 86_400_000;
const start = Date.parse('2026-11-20T00:00:00.000Z');
const days = (n: number) => ({ start, end: start + n * DAY, stepMs: DAY });

describe('the overview’s series', () => {
  const rows = [
    { date__day: '2026-11-20T00:00:00.000Z', model: 'sim/a', request_count: 2, total_usage: 0.5 },
    { date__day: '2026-11-22T00:00:00.000Z', model: 'sim/a', request_count: 1, total_usage: 0.25 },
    { date__day: '2026-11-22T00:00:00.000Z', model: 'sim/b', request_count: 4, total_usage: 0.1 },
    // Outside the range asked for: left out rather than misplaced.
    { date__day: '2026-11-25T00:00:00.000Z', model: 'sim/b', request_count: 9, total_usage: 9 },
  ];

  it('aligns every model on every bucket of the range, a bucket without a row counting zero', () => {
    const { times, spend, requests } = pivot(rows, days(3), 'model');
    expect(times).toEqual([0, 1, 2].map((d) => (start + d * DAY) / 1000));
    expect(requests).toEqual([
      { label: 'sim/a', values: [2, 0, 1] },
      { label: 'sim/b', values: [0, 0, 4] },
    ]);
    expect(spend).toEqual([
      { label: 'sim/a', values: [0.5, 0, 0.25] },
      { label: 'sim/b', values: [0, 0, 0.1] },
    ]);
  });

  it('orders both charts’ lines alike, the most spent first, so that a line keeps its colour', () => {
    const cheapButBusy = [
      { date__day: '2026-11-20T00:00:00.000Z', model: 'cheap', request_count: 100, total_usage: 0.01 },
      { date__day: '2026-11-20T00:00:00.000Z', model: 'dear', request_count: 1, total_usage: 5 },
    ];
    const { spend, requests } = pivot(cheapButBusy, days(1), 'model');
    expect(spend.map((s) => s.label)).toEqual(['dear', 'cheap']);
    expect(requests.map((s) => s.label)).toEqual(['dear', 'cheap']);
  });

  it('draws a line per key under the name given, the dearest first', () => {
    const byKey = [
      { date__day: '2026-11-20T00:00:00.000Z', api_key_id: 'h1', request_count: 1, total_usage: 1 },
      { date__day: '2026-11-21T00:00:00.000Z', api_key_id: 'h2', request_count: 1, total_usage: 2 },
    ];
    const names: Record<string, string> = { h1: 'web app', h2: 'batch jobs' };
    expect(pivot(byKey, days(2), 'api_key_id', (hash) => names[hash] ?? hash).spend).toEqual([
      { label: 'batch jobs', values: [0, 2] },
      { label: 'web app', values: [1, 0] },
    ]);
  });

  it('folds the lines past the eighth into one "Other" line that keeps their sums', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      date__day: '2026-11-20T00:00:00.000Z',
      api_key_id: `k${String(i).padStart(2, '0')}`,
      request_count: i + 1,
      total_usage: (i + 1) / 100,
    }));
    const { spend, requests } = pivot(many, days(1), 'api_key_id');
    expect(spend).toHaveLength(MAX_SERIES);
    expect(spend.slice(0, MAX_SERIES - 1).map((s) => s.label)).toEqual(['k11', 'k10', 'k09', 'k08', 'k07', 'k06', 'k05']);
    // k00…k04: 1 + 2 + 3 + 4 + 5 requests, a hundredth of a dollar each.
    expect(requests.at(-1)).toEqual({ label: 'Other (5)', values: [15] });
    expect(spend.at(-1)!.values[0]).toBeCloseTo(0.15, 12);
    expect(requests.reduce((sum, s) => sum + s.values[0]!, 0)).toBe(78);
  });

  it('buckets by the hour when the rows are hourly', () => {
    const hourly = [{ date__hour: '2026-11-20T05:00:00.000Z', request_count: 3, total_usage: 1 }];
    const { times, requests } = pivot(hourly, { start, end: start + DAY, stepMs: DAY / 24 }, 'model');
    expect(times).toHaveLength(24);
    expect(requests).toEqual([{ label: '(none)', values: times.map((_, i) => (i === 5 ? 3 : 0)) }]);
  });

  it('sums by model or key, the most spent first, then the most requests', () => {
    expect(totals(rows, 'model')).toEqual([
      { name: 'sim/b', requests: 13, spend: 9.1 },
      { name: 'sim/a', requests: 3, spend: 0.75 },
    ]);
    expect(
      totals(
        [
          { api_key_id: 'k1', request_count: 1, total_usage: 0 },
          { api_key_id: 'k2', request_count: 5, total_usage: 0 },
        ],
        'api_key_id',
      ).map((t) => t.name),
    ).toEqual(['k2', 'k1']);
  });
});
