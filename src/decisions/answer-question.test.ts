import { describe, expect, it } from 'vitest';
import type { DecisionQuestion } from '../protocol/decisions.js';
import { answerQuestion } from './answer-question.js';

const choice: DecisionQuestion = {
  type: 'choice',
  instructions: 'Which?',
  criteria: { billing: 'Payments', support: null, sales: 'Buying' },
};
const score: DecisionQuestion = { type: 'score', instructions: 'How bad?', criteria: ['low', 'mid', 'high'] };
const noul: DecisionQuestion = { type: 'noul', instructions: 'Is it?' };

describe('answerQuestion', () => {
  it('scales probabilities to sum to 1 and picks the likeliest option, its probability as confidence', () => {
    expect(answerQuestion(choice, { kind: 'probabilities', probabilities: [0.2, 0.6, 0.2] })).toEqual({
      type: 'choice',
      choice: 'support',
      probabilities: { billing: 0.2, support: 0.6, sales: 0.2 },
      confidence: 0.6,
    });
    const scaled = answerQuestion(choice, { kind: 'probabilities', probabilities: [0.1, 0.3, 0.1] });
    expect(scaled).toMatchObject({ choice: 'support', probabilities: { billing: 0.2, support: 0.6, sales: 0.2 }, confidence: 0.6 });
  });

  it('a noul is the probability of yes (the first option)', () => {
    expect(answerQuestion(noul, { kind: 'probabilities', probabilities: [0.3, 0.1] })).toEqual({ type: 'noul', noul: 0.75 });
  });

  it('a score is the probability-weighted position, with its legend', () => {
    expect(answerQuestion(score, { kind: 'probabilities', probabilities: [0.25, 0.25, 0.5] })).toEqual({
      type: 'score',
      score: 1.25,
      legend: { 0: 'low', 1: 'mid', 2: 'high' },
      probabilities: { 0: 0.25, 1: 0.25, 2: 0.5 },
      confidence: 0.5,
    });
  });

  it('an option picked without probabilities leaves its odds out, unknown', () => {
    expect(answerQuestion(choice, { kind: 'picked', index: 2 })).toEqual({ type: 'choice', choice: 'sales' });
    expect(answerQuestion(noul, { kind: 'picked', index: 1 })).toEqual({ type: 'noul', noul: 0 });
    expect(answerQuestion(score, { kind: 'picked', index: 1 })).toEqual({
      type: 'score',
      score: 1,
      legend: { 0: 'low', 1: 'mid', 2: 'high' },
    });
  });

  it('nothing said of any option is uniform, not a division by zero', () => {
    expect(answerQuestion(noul, { kind: 'probabilities', probabilities: [0, 0] })).toEqual({ type: 'noul', noul: 0.5 });
  });
});
