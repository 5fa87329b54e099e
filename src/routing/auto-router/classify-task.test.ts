import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../protocol/chat.js';
import { classifyTask, decideTask, taskCues } from './classify-task.js';

const user = (content: string): ChatMessage[] => [{ role: 'user', content }];

describe('classifyTask', () => {
  it.each([
    ['a code block', 'Why does this fail?\n```\nconst x = 1;\nx = 2;\n```', 'coding'],
    ['a stack trace', 'I get a TypeError: cannot read properties of undefined in my node.js script', 'coding'],
    ['a function to write', 'Write a Python function that reverses a linked list', 'coding'],
    ['a SQL query', 'select name, total from orders where total > 10 -- why is this slow?', 'coding'],
    ['LaTeX', 'Evaluate \\int_0^1 x^2 dx', 'math'],
    ['an equation to solve', 'Solve the equation 3x + 5 = 20 for x', 'math'],
    ['a derivative', 'What is the derivative of sin(x) * x^2?', 'math'],
    ['a translation', 'Translate "good morning, how are you?" into Japanese', 'translation'],
    ['a target language', 'How do I say "where is the station" in German?', 'translation'],
    ['a poem', 'Write a short poem about the sea at night', 'creative_writing'],
    ['a story', 'Tell me a bedtime story with a brave little fox as the main character', 'creative_writing'],
    ['small talk', 'Hello! How are you today?', 'general'],
    ['a fact question', 'What is the capital of Australia?', 'general'],
    ['prices with dollar signs', 'Is $5 and $10 a fair price for two coffees?', 'general'],
    ['a lone weak cue', 'My favourite language is Python', 'general'],
  ])('%s is %s', (_, text, task) => {
    expect(classifyTask(user(text)).task).toBe(task);
  });

  it('reads the latest user message, text parts included, and names the cues', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You translate documents.' },
      { role: 'user', content: 'Translate this to French' },
      { role: 'assistant', content: 'Bonjour' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Now fix this bug:' },
          { type: 'text', text: '```js\nfoo(\n```' },
        ],
      },
    ];
    expect(classifyTask(messages)).toEqual({ task: 'coding', cues: ['code block', 'programming word'] });
  });

  it('weighs the cues, and breaks ties in the order coding, math, translation, creative writing', () => {
    // Coding: a language name and a programming word (2); math: a math verb (2).
    expect(classifyTask(user('a python script to solve it')).task).toBe('coding');
    // Translation 3 + 2 + 1 against creative writing 2.
    expect(classifyTask(user('Translate this poem into Spanish')).task).toBe('translation');
  });

  it('is general without a user message', () => {
    expect(classifyTask([{ role: 'system', content: 'Be brief.' }])).toEqual({ task: 'general', cues: [] });
  });

  it('decides from the cues alone, which keep none of the words', () => {
    const text = 'Translate this poem into Spanish';
    const cues = taskCues(text);
    expect(cues).toEqual([
      'translation/translate',
      'translation/target language',
      'translation/language name',
      'creative_writing/creative form',
    ]);
    expect(decideTask(cues)).toEqual(classifyTask(user(text)));
    expect(cues.join(' ')).not.toContain('poem');
  });

  it('counts a cue once and ignores ids it does not know', () => {
    expect(decideTask(['math/math verb', 'math/math verb']).task).toBe('math');
    expect(decideTask(['coding/language name', 'coding/language name']).task).toBe('general');
    expect(decideTask(['coding/gone cue', 'other/thing'])).toEqual({ task: 'general', cues: [] });
  });
});
