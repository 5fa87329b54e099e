import { describe, expect, it } from 'vitest';
import { readQuestions } from './read-questions.js';

describe('readQuestions', () => {
  it('keeps valid questions of the three types', () => {
    const questions = {
      a: { type: 'choice', instructions: 'Which?', criteria: { x: 'X', y: null } },
      b: { type: 'noul', instructions: 'Is it?' },
      c: { type: 'noul', instructions: 'Is it?', criteria: { true: 'yes', false: 'no' } },
      d: { type: 'score', instructions: 'How?', criteria: ['low', 'high'] },
    };
    expect(readQuestions(questions)).toEqual(questions);
  });

  it.each([
    [{}, 'questions must hold 1 to 100 questions, not 0'],
    [{ q: 'text' }, 'questions.q must be an object'],
    [{ q: { type: 'box', instructions: 'x' } }, 'questions.q.type must be one of choice, noul, score, not "box"'],
    [{ q: { instructions: 'x' } }, 'questions.q.type must be one of choice, noul, score, not null'],
    [{ q: { type: 'noul', instructions: '  ' } }, 'questions.q.instructions must be a non-empty string'],
    [{ q: { type: 'choice', instructions: 'x', criteria: ['a', 'b'] } }, 'questions.q.criteria must map 2 to 26 options'],
    [
      { q: { type: 'choice', instructions: 'x', criteria: { a: 'A', b: 3 } } },
      'questions.q.criteria.b must be a string, object, array or null',
    ],
    [{ q: { type: 'noul', instructions: 'x', criteria: { true: 1 } } }, 'questions.q.criteria.true must be a string, object or array'],
    [{ q: { type: 'score', instructions: 'x', criteria: ['only'] } }, 'questions.q.criteria must list 2 to 26 levels'],
    [
      { q: { type: 'score', instructions: 'x', criteria: Array.from({ length: 27 }, (_, i) => `l${i}`) } },
      'questions.q.criteria must list 2 to 26 levels',
    ],
  ])('refuses %j naming the question and field', (questions, message) => {
    expect(() => readQuestions(questions as Record<string, unknown>)).toThrow(message);
  });

  it('refuses more than 100 questions', () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`q${i}`, { type: 'noul', instructions: 'x' }]));
    expect(() => readQuestions(many)).toThrow('questions must hold 1 to 100 questions, not 101');
  });
});
