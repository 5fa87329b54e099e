import { describe, expect, it } from 'vitest';
import { countSamples, storedSample } from './classification-pass.js';
import { TaskSampler } from './task-sampler.js';

const row = {
  organization_id: 'o',
  workspace_id: 'w',
  model: 'm/a',
  created_at: '2026-11-20T10:00:00.000Z',
  tokens_prompt: 7,
  tokens_completion: 3,
};
const said = (content: string) => [{ role: 'user' as const, content }];

describe('TaskSampler', () => {
  it('holds the picked requests, at most `max`, and hands them over once', () => {
    const draws = [0.01, 0.5, 0.02, 0.03];
    const sampler = new TaskSampler({ rate: 0.05, max: 2 }, () => draws.shift()!);
    for (const text of ['one', 'two', 'three', 'four']) sampler.offer(said(text), row);
    expect(sampler.take().map((sample) => sample.text)).toEqual(['one', 'three']);
    expect(sampler.take()).toEqual([]);
  });

  it('copies only what the classifier reads of the prompt', () => {
    const sampler = new TaskSampler({ rate: 1, max: 10 });
    sampler.offer([...said('old question'), { role: 'assistant', content: 'answer' }, ...said('x'.repeat(20_000))], row);
    const [held] = sampler.take();
    expect(held).toEqual({ organization_id: 'o', workspace_id: 'w', day: '2026-11-20', model: 'm/a', tokens: 10, text: 'x'.repeat(8_000) });
  });
});

describe('the classification pass', () => {
  it('stores a sample’s cues in place of its text', () => {
    const held = {
      organization_id: 'o',
      workspace_id: 'w',
      day: '2026-11-20',
      model: 'm/a',
      tokens: 10,
      text: 'Write a short poem about the sea',
    };
    expect(storedSample(held)).toEqual({
      organization_id: 'o',
      workspace_id: 'w',
      day: '2026-11-20',
      model: 'm/a',
      tokens: 10,
      cues: 'creative_writing/creative piece\ncreative_writing/creative form',
    });
  });

  it('counts the samples by organization, day, workspace, task and model', () => {
    const sample = (cues: string, day = '2026-11-20', tokens = 5) => ({
      organization_id: 'o',
      workspace_id: 'w',
      day,
      model: 'm/a',
      tokens,
      cues,
    });
    expect(
      countSamples([
        sample('coding/code block'),
        sample('coding/code block\ncoding/programming word', '2026-11-20', 7),
        sample(''),
        sample('coding/code block', '2026-11-21'),
      ]),
    ).toEqual([
      { organization_id: 'o', day: '2026-11-20', workspace_id: 'w', task: 'coding', model: 'm/a', requests: 2, tokens: 12 },
      { organization_id: 'o', day: '2026-11-20', workspace_id: 'w', task: 'general', model: 'm/a', requests: 1, tokens: 5 },
      { organization_id: 'o', day: '2026-11-21', workspace_id: 'w', task: 'coding', model: 'm/a', requests: 1, tokens: 5 },
    ]);
  });
});
