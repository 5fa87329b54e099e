import { describe, expect, it } from 'vitest';
import type { TaskType } from '../../protocol/routing-vocabulary.js';
import { chooseSwitchyardModels, ruleMismatch, type SwitchyardRule, type SwitchyardSettings } from './choose-switchyard-models.js';
import type { RequestFeatures } from './request-features.js';

const features = (over: Partial<Omit<RequestFeatures, 'task'>> & { task?: TaskType } = {}): RequestFeatures => {
  const { task = 'general', ...rest } = over;
  return { tools: false, images: false, reasoning: false, promptTokens: 100, toolErrors: 0, ...rest, task: () => task };
};

const rules: SwitchyardRule[] = [
  { name: 'vision', when: { images: true }, models: ['g/vision'] },
  { name: 'escalate', when: { tools: true, min_tool_errors: 2 }, models: ['a/strong'] },
  { name: 'agents', when: { tools: true }, models: ['a/agent', 'o/agent'] },
  { name: 'long', when: { min_prompt_tokens: 50_000 }, models: ['g/long'] },
  { name: 'code', when: { task: 'coding', reasoning: true }, models: ['a/strong'] },
  { models: ['o/mini'] },
];
const choose = (f: RequestFeatures, settings: SwitchyardSettings = { rules }, random = () => 0) =>
  chooseSwitchyardModels(settings, f, random);

describe('ruleMismatch', () => {
  it.each([
    [{ tools: true }, features({ tools: true }), undefined],
    [{ tools: true }, features(), 'tools is false'],
    [{ images: false }, features({ images: true }), 'images is true'],
    [{ min_prompt_tokens: 200 }, features(), '100 prompt tokens < 200'],
    [{ max_prompt_tokens: 50 }, features(), '100 prompt tokens > 50'],
    [{ min_tool_errors: 1 }, features(), '0 tool errors < 1'],
    [{ task: 'math' as const }, features({ task: 'coding' }), 'task is coding'],
    [undefined, features(), undefined],
  ])('%j against the request: %s', (when, f, expected) => {
    expect(ruleMismatch(when, f)).toBe(expected);
  });
});

describe('chooseSwitchyardModels', () => {
  it.each([
    ['images', features({ images: true, tools: true }), ['g/vision']],
    ['tools after repeated tool errors', features({ tools: true, toolErrors: 2 }), ['a/strong']],
    ['tools', features({ tools: true, toolErrors: 1 }), ['a/agent', 'o/agent']],
    ['a long prompt', features({ promptTokens: 60_000 }), ['g/long']],
    ['coding with reasoning', features({ task: 'coding', reasoning: true }), ['a/strong']],
    ['coding without reasoning falls through to the catch-all', features({ task: 'coding' }), ['o/mini']],
  ])('the first rule that applies decides: %s', (_, f, expected) => {
    expect(choose(f).models).toEqual(expected);
  });

  it('evaluates the rules for every deciding algorithm', () => {
    for (const algorithm of ['capability', 'stage', 'auto', 'composite'] as const)
      expect(choose(features({ tools: true }), { algorithm, rules }).models).toEqual(['a/agent', 'o/agent']);
  });

  it('explains the decision: the rule that applied, why earlier ones did not, later ones not reached', () => {
    const choice = choose(features({ tools: true }));
    expect(choice.params).toEqual({
      algorithm: 'capability',
      rule: 'rule 3 (agents)',
      features: { tools: true, images: false, reasoning: false, prompt_tokens: 100, tool_errors: 0 },
    });
    expect(choice.verdicts).toEqual([
      { model: 'a/agent', decision: 'chosen', reason: 'rule 3 (agents) applies' },
      { model: 'o/agent', decision: 'chosen', reason: 'rule 3 (agents) applies' },
      { model: 'g/vision', decision: 'dropped', reason: 'rule 1 (vision) does not apply: images is false' },
      { model: 'a/strong', decision: 'dropped', reason: 'rule 2 (escalate) does not apply: 0 tool errors < 2' },
      { model: 'g/long', decision: 'dropped', reason: 'rule 4 (long) not reached' },
      { model: 'o/mini', decision: 'dropped', reason: 'rule 6 not reached' },
    ]);
    expect(choice.summary).toBe('a/agent by rule 3 (agents)');
  });

  it('passthrough decides nothing; random draws the first model', () => {
    const every = ['g/vision', 'a/strong', 'a/agent', 'o/agent', 'g/long', 'o/mini'];
    expect(choose(features(), { algorithm: 'passthrough', rules }).models).toEqual(every);
    const drawn = choose(features(), { algorithm: 'random', rules }, () => 0.7);
    expect(drawn.models).toEqual(['g/long', 'g/vision', 'a/strong', 'a/agent', 'o/agent', 'o/mini']);
    expect(drawn.verdicts[0]).toEqual({ model: 'g/long', decision: 'chosen', reason: 'random: drawn first' });
  });

  it('chooses nothing without rules or when none applies, and says so', () => {
    expect(choose(features(), {})).toMatchObject({ models: [], summary: expect.stringContaining('no rules') });
    const none = choose(features(), { rules: [{ when: { tools: true }, models: ['a/agent'] }] });
    expect(none).toMatchObject({ models: [], summary: 'no rule applies to this request (1 rule)', params: { rule: null } });
    expect(none.verdicts).toEqual([{ model: 'a/agent', decision: 'dropped', reason: 'rule 1 does not apply: tools is false' }]);
  });
});
