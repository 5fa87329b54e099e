import { describe, expect, it } from 'vitest';
import { closestModel } from './closest-model.js';

const IDS = ['sim/chat', 'sim/chat-large', 'openai/gpt-4.1', 'anthropic/claude-sonnet-4'];

describe('closestModel', () => {
  it.each([
    ['sim/chta', 'sim/chat'],
    ['Sim/Chat', 'sim/chat'],
    ['openai/gpt-4.2', 'openai/gpt-4.1'],
    ['anthropic/claude-sonet-4', 'anthropic/claude-sonnet-4'],
    ['sim/chat-lrage', 'sim/chat-large'],
  ])('suggests %s → %s', (asked, expected) => {
    expect(closestModel(asked, IDS)).toBe(expected);
  });

  it.each(['mistral/large', 'sim/embeddings', 'x'.repeat(300), ''])('suggests nothing for %s, too far from every id', (asked) => {
    expect(closestModel(asked, IDS)).toBeUndefined();
  });

  it('suggests nothing from an empty catalogue', () => {
    expect(closestModel('sim/chat', [])).toBeUndefined();
  });
});
