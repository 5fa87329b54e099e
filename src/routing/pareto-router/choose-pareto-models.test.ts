import { describe, expect, it } from 'vitest';
import type { RoutableModel } from '../routers/routable-model.js';
import { chooseParetoModels, type ParetoRouterSettings } from './choose-pareto-models.js';

const model = (
  id: string,
  coding: number | undefined,
  perMillionPrompt: number,
  endpoints: RoutableModel['endpoints'] = [],
): RoutableModel => ({
  id,
  scores: coding === undefined ? {} : { coding },
  price: perMillionPrompt / 1e6,
  promptPrice: perMillionPrompt / 1e6,
  endpoints,
});
// Coding percentiles: f 0, e 17, d 33, c 50, g 67, b 83, a 100; d and g are off the frontier.
const models = [
  model('p/a', 0.9, 5),
  model('p/b', 0.8, 3, [
    { provider: 'x', prompt: 3e-6 },
    { provider: 'y', prompt: 1e-6 },
  ]),
  model('p/c', 0.7, 1),
  model('p/d', 0.6, 4),
  model('p/e', 0.4, 0.5),
  model('p/f', 0.2, 0.1),
  model('p/g', 0.75, 6),
  model('p/none', undefined, 0.01),
];
const traffic = (id: string, provider: string) => (id === 'p/b' ? ({ x: 1, y: 3 } as Record<string, number>)[provider]! : 0);
const choose = (settings: ParetoRouterSettings) => chooseParetoModels({ models, settings, traffic });

describe('chooseParetoModels', () => {
  it.each([
    { name: 'omitted min_coding_score: the high tier, cheapest frontier model first', settings: {}, expected: ['p/b', 'p/a'] },
    { name: 'min_coding_score ≥ 0.66: high', settings: { min_coding_score: 0.9 }, expected: ['p/b', 'p/a'] },
    {
      name: 'min_coding_score ≥ 0.33: medium, off-frontier models last',
      settings: { min_coding_score: 0.5 },
      expected: ['p/b', 'p/a', 'p/g'],
    },
    { name: 'min_coding_score < 0.33: low, above the median', settings: { min_coding_score: 0.1 }, expected: ['p/c', 'p/b', 'p/a', 'p/g'] },
    {
      name: 'max_price: best-scoring affordable frontier model, then cheaper ones',
      settings: { max_price: 5.5 },
      expected: ['p/a', 'p/b', 'p/c'],
    },
    { name: 'max_price bypasses min_coding_score', settings: { max_price: 4, min_coding_score: 0.9 }, expected: ['p/b', 'p/c'] },
    { name: 'max_price nothing meets', settings: { max_price: 0.5 }, expected: [] },
    { name: 'price_source prompt is the list price', settings: { max_price: 2 }, expected: ['p/c'] },
    {
      name: 'price_source weighted_avg weighs endpoints by traffic',
      settings: { max_price: 2, price_source: 'weighted_avg' },
      expected: ['p/b', 'p/c'],
    },
  ] satisfies { name: string; settings: ParetoRouterSettings; expected: string[] }[])('$name', ({ settings, expected }) => {
    expect(choose(settings).models).toEqual(expected);
  });

  it('explains the choice: price, frontier, tier floor and the cap', () => {
    const tiered = choose({ min_coding_score: 0.5 });
    expect(tiered.params).toEqual({ price_source: 'prompt', tier: 'medium', quality_floor: 0.75 });
    expect(tiered.verdicts).toContainEqual({ model: 'p/g', decision: 'chosen', reason: 'coding score 0.75, $6/M input, off the frontier' });
    expect(tiered.verdicts).toContainEqual({
      model: 'p/c',
      decision: 'dropped',
      reason: 'coding score 0.7 below the medium tier (percentile 50 < 60)',
    });
    expect(tiered.verdicts).toContainEqual({ model: 'p/none', decision: 'dropped', reason: 'no coding score' });

    const capped = choose({ max_price: 2, price_source: 'weighted_avg' });
    expect(capped.verdicts[0]).toEqual({
      model: 'p/b',
      decision: 'chosen',
      reason: 'coding score 0.8, $1.5/M input (traffic-weighted), on the frontier',
    });
    expect(capped.verdicts).toContainEqual({ model: 'p/a', decision: 'dropped', reason: '$5/M input above max_price 2' });
    expect(choose({ max_price: 0.5 }).summary).toBe(
      'no model with a coding score is priced at or under max_price $0.5/M input (price_source prompt)',
    );
  });
});
