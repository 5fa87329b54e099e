import { describe, expect, it } from 'vitest';
import { paretoFrontier } from './pareto-frontier.js';

describe('paretoFrontier', () => {
  const point = (id: string, cost: number, quality: number) => ({ id, cost, quality });
  const frontier = (...points: ReturnType<typeof point>[]) =>
    [
      ...paretoFrontier(
        points,
        (p) => p.cost,
        (p) => p.quality,
      ),
    ].map((p) => p.id);

  it('keeps what nothing beats on both cost and quality', () => {
    expect(frontier(point('cheap', 1, 0.3), point('mid', 2, 0.6), point('worse', 3, 0.5), point('best', 4, 0.9))).toEqual([
      'cheap',
      'mid',
      'best',
    ]);
  });

  it('drops a point that another ties on one axis and beats on the other, keeps exact twins', () => {
    expect(frontier(point('a', 1, 0.5), point('b', 1, 0.4), point('c', 2, 0.5))).toEqual(['a']);
    expect(frontier(point('a', 1, 0.5), point('b', 1, 0.5))).toEqual(['a', 'b']);
    expect(frontier()).toEqual([]);
  });
});
