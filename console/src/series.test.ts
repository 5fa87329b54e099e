import { describe, expect, it } from 'vitest';
import { pivot, totals } from './series';

const DAY = 86_400_000;
const start = Date.parse('2026-11-20T00:00:00.000Z');

describe('the overview’s series', () => {
  const rows = [
    { date__day: '2026-11-20T00:00:00.000Z', model: 'sim/a', request_count: 2, total_usage: 0.5 },
    { date__day: '2026-11-22T00:00:00.000Z', model: 'sim/a', request_count: 1, total_usage: 0.25 },
    { date__day: '2026-11-22T00:00:00.000Z', model: 'sim/b', request_count: 4, total_usage: 0.1 },
    // Outside the range asked for: left out rather than misplaced.
    { date__day: '2026-11-25T00:00:00.000Z', model: 'sim/b', request_count: 9, total_usage: 9 },
  ];

  it('aligns every model on every bucket of the range, a bucket without a row counting zero', () => {
    const { times, series } = pivot(rows, start, start + 3 * DAY, DAY, 'request_count');
    expect(times).toEqual([0, 1, 2].map((d) => (start + d * DAY) / 1000));
    expect(series).toEqual([
      { label: 'sim/a', values: [2, 0, 1] },
      { label: 'sim/b', values: [0, 0, 4] },
    ]);
    expect(pivot(rows, start, start + 3 * DAY, DAY, 'total_usage').series[0]!.values).toEqual([0.5, 0, 0.25]);
  });

  it('buckets by the hour when the rows are hourly', () => {
    const hourly = [{ date__hour: '2026-11-20T05:00:00.000Z', request_count: 3, total_usage: 1 }];
    const { times, series } = pivot(hourly, start, start + DAY, DAY / 24, 'request_count');
    expect(times).toHaveLength(24);
    expect(series).toEqual([{ label: 'all', values: times.map((_, i) => (i === 5 ? 3 : 0)) }]);
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
