import { describe, expect, it } from 'vitest';
import { MODELS_PER_TAG, taskShares } from './task-shares.js';

const row = (task: string, model: string, requests: number, tokens: number) => ({ task, model, requests, tokens });

describe('taskShares', () => {
  it('shares requests and tokens among tasks, within macro-categories and among a task’s models', () => {
    const shares = taskShares([
      row('coding', 'm/a', 3, 300),
      row('coding', 'm/b', 1, 100),
      row('math', 'm/a', 2, 100),
      row('general', 'm/b', 4, 500),
    ]);
    expect(shares.classifications).toEqual([
      {
        tag: 'code:coding',
        display_name: 'Coding',
        macro_category: 'code',
        usage_share: 0.4,
        token_share: 400 / 1000,
        category_usage_share: 1,
        category_token_share: 1,
        models: [
          { id: 'm/a', tag_usage_share: 0.75, tag_token_share: 0.75 },
          { id: 'm/b', tag_usage_share: 0.25, tag_token_share: 0.25 },
        ],
      },
      {
        tag: 'general:chat',
        display_name: 'General Chat',
        macro_category: 'general',
        usage_share: 0.4,
        token_share: 0.5,
        category_usage_share: 4 / 6,
        category_token_share: 500 / 600,
        models: [{ id: 'm/b', tag_usage_share: 1, tag_token_share: 1 }],
      },
      {
        tag: 'general:math',
        display_name: 'Math',
        macro_category: 'general',
        usage_share: 0.2,
        token_share: 0.1,
        category_usage_share: 2 / 6,
        category_token_share: 100 / 600,
        models: [{ id: 'm/a', tag_usage_share: 1, tag_token_share: 1 }],
      },
    ]);
    expect(shares.macro_categories).toEqual([
      { key: 'general', label: 'General', usage_share: 0.6, token_share: 0.6 },
      { key: 'code', label: 'Code', usage_share: 0.4, token_share: 0.4 },
    ]);
  });

  it('lists a task’s top models only, and answers shares of 0 where nothing was counted', () => {
    const many = Array.from({ length: MODELS_PER_TAG + 2 }, (_, i) => row('coding', `m/${String(i).padStart(2, '0')}`, i + 1, 0));
    const [coding] = taskShares(many).classifications;
    expect(coding!.models).toHaveLength(MODELS_PER_TAG);
    expect(coding!.models[0]!.id).toBe(`m/${MODELS_PER_TAG + 1}`);
    expect(coding!.token_share).toBe(0);
    expect(coding!.models[0]!.tag_token_share).toBe(0);
  });

  it('leaves out a task it does not know, and answers nothing of nothing', () => {
    expect(taskShares([row('legal', 'm/a', 5, 5)])).toEqual({ classifications: [], macro_categories: [] });
  });
});
