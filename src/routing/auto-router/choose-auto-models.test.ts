import { describe, expect, it } from 'vitest';
import type { TaskType } from '../../protocol/routing-vocabulary.js';
import type { RoutableModel } from '../routers/routable-model.js';
import { type AutoRouterSettings, chooseAutoModels } from './choose-auto-models.js';

const model = (id: string, price: number, scores: RoutableModel['scores']): RoutableModel => ({
  id,
  price,
  promptPrice: price / 2,
  scores,
  endpoints: [],
});
const models = [
  model('a/cheap', 1, { coding: 0.3, general: 0.4 }),
  model('a/mid', 2, { coding: 0.6, general: 0.6, math: 0.7 }),
  model('b/good', 3, { coding: 0.8, general: 0.8 }),
  model('b/best', 4, { coding: 0.9, general: 0.9 }),
  model('c/unscored', 0.5, {}),
];
const choose = (task: TaskType, settings: AutoRouterSettings = {}, pinned?: string) =>
  chooseAutoModels({ models, classification: { task, cues: [] }, settings, pinned });

describe('chooseAutoModels', () => {
  const cases: { name: string; task?: TaskType; settings?: AutoRouterSettings; pinned?: string; expected: string[] }[] = [
    { name: 'rule 2: models ranked for the task; rule 5: tradeoff 9 by default keeps the cheapest', expected: ['a/cheap'] },
    { name: 'rule 4: cost_tier max', settings: { cost_tier: 'max' }, expected: ['b/best'] },
    { name: 'rule 4: cost_tier low', settings: { cost_tier: 'low' }, expected: ['a/cheap'] },
    { name: 'rule 4: an empty band takes the nearest, best score first', settings: { cost_tier: 'high' }, expected: ['b/good', 'a/mid'] },
    {
      name: 'rule 5: tradeoff 0 permits up to the 90th percentile, best score first',
      settings: { cost_quality_tradeoff: 0 },
      expected: ['b/good', 'a/mid', 'a/cheap'],
    },
    { name: 'rule 5: cost_tier wins over the tradeoff', settings: { cost_tier: 'max', cost_quality_tradeoff: 10 }, expected: ['b/best'] },
    {
      name: 'rule 1: allowed_models with a trailing wildcard',
      settings: { allowed_models: ['a/*'], cost_tier: 'max' },
      expected: ['a/mid'],
    },
    { name: 'rule 1: allowed_models admits unranked models', settings: { allowed_models: ['c/*'] }, expected: ['c/unscored'] },
    {
      name: 'rule 3: an excluded pattern wins over an allowed one',
      settings: { allowed_models: ['b/*'], excluded_models: ['b/best'], cost_tier: 'max' },
      expected: ['b/good'],
    },
    { name: 'rule 2: ranked models of the task only', task: 'math', expected: ['a/mid'] },
    {
      name: 'rule 2: the default model set when nothing is ranked',
      task: 'translation',
      settings: { cost_quality_tradeoff: 0 },
      expected: ['b/good', 'a/mid', 'a/cheap'],
    },
    {
      name: 'rule 6: pin_model reuses the last assistant model first',
      settings: { pin_model: true },
      pinned: 'b/best',
      expected: ['b/best', 'a/cheap'],
    },
    { name: 'rule 6: pin_model off ignores it', pinned: 'b/best', expected: ['a/cheap'] },
    {
      name: 'rule 6: a pinned model the patterns exclude is not reused',
      settings: { pin_model: true, excluded_models: ['b/*'] },
      pinned: 'b/best',
      expected: ['a/cheap'],
    },
    { name: 'rule 6: an unknown pinned model is not reused', settings: { pin_model: true }, pinned: 'z/gone', expected: ['a/cheap'] },
    { name: 'nothing left', settings: { excluded_models: ['*'] }, expected: [] },
  ];
  it.each(cases)('$name', ({ task, settings, pinned, expected }) => {
    expect(choose(task ?? 'coding', settings, pinned).models).toEqual(expected);
  });

  it('explains every model: chosen ones first, each drop with its rule', () => {
    const choice = choose('coding', { allowed_models: ['a/*', 'b/*'], excluded_models: ['b/good'], cost_tier: 'low' });
    expect(choice.verdicts).toEqual([
      { model: 'a/cheap', decision: 'chosen', reason: 'coding score 0.3, cost percentile 0' },
      { model: 'b/good', decision: 'dropped', reason: 'excluded_models: matches b/good' },
      { model: 'c/unscored', decision: 'dropped', reason: 'not matched by allowed_models' },
      { model: 'a/mid', decision: 'dropped', reason: 'cost percentile 50 outside cost_tier low [0, 20)' },
      { model: 'b/best', decision: 'dropped', reason: 'cost percentile 100 outside cost_tier low [0, 20)' },
    ]);
    expect(choice.params).toEqual({ task: 'coding', task_cues: [], candidates: 'allowed_models', cost_band: 'cost_tier low [0, 20)' });
    expect(choice.summary).toBe('coding → a/cheap, 1 of 5 models (allowed_models, cost_tier low [0, 20))');
  });

  it('says which models are not ranked for the task, and when the default set stood in', () => {
    expect(choose('math').verdicts).toContainEqual({ model: 'b/best', decision: 'dropped', reason: 'not ranked for math' });
    expect(choose('translation').params.candidates).toBe('default model set (no model is ranked for translation)');
    expect(choose('coding', { pin_model: true }, 'b/best').verdicts[0]).toEqual({
      model: 'b/best',
      decision: 'chosen',
      reason: 'pin_model: the model of the most recent assistant message',
    });
  });
});
