import { describe, expect, it } from 'vitest';
import type { DecisionsRequest } from '../../protocol/decisions.js';
import { convertDecisionsResponse } from './convert-decisions-response.js';

const request: Pick<DecisionsRequest, 'questions'> = {
  questions: {
    team: { type: 'choice', instructions: 'Which?', criteria: { billing: 'Pay', support: 'Help' } },
    yes: { type: 'noul', instructions: 'Is it?' },
    level: { type: 'score', instructions: 'How?', criteria: ['low', 'mid', 'high'] },
  },
};

describe('convertDecisionsResponse', () => {
  it('reads each answer as what was said of its options, in option order', () => {
    const body = {
      id: 'dec-1',
      answers: {
        team: { type: 'choice', choice: 'support', probabilities: { billing: 0.25, support: 0.75 }, confidence: 0.75 },
        yes: { type: 'noul', noul: 0.8 },
        level: { type: 'score', score: 2 },
      },
      usage: { input_tokens: 12, output_tokens: 3 },
    };
    const read = convertDecisionsResponse(body, request)!;
    expect(read.id).toBe('dec-1');
    expect(read.usage).toEqual({ input_tokens: 12, output_tokens: 3 });
    expect(read.readings.team).toEqual({ kind: 'probabilities', probabilities: [0.25, 0.75] });
    expect(read.readings.yes!.kind).toBe('probabilities');
    expect((read.readings.yes as { kind: 'probabilities'; probabilities: readonly number[] }).probabilities[0]).toBe(0.8);
    expect(read.readings.level).toEqual({ kind: 'picked', index: 2 });
  });

  it.each([
    ['a missing answer', { team: { type: 'choice', choice: 'billing' }, yes: { type: 'noul', noul: 0.5 } }],
    ['a wrong type', { team: { type: 'noul', noul: 1 }, yes: { type: 'noul', noul: 0.5 }, level: { type: 'score', score: 1 } }],
    [
      'a probability out of range',
      { team: { type: 'choice', choice: 'billing' }, yes: { type: 'noul', noul: 1.5 }, level: { type: 'score', score: 1 } },
    ],
    [
      'an unknown choice',
      { team: { type: 'choice', choice: 'sales' }, yes: { type: 'noul', noul: 0.5 }, level: { type: 'score', score: 1 } },
    ],
  ])('is malformed with %s', (_, answers) => {
    expect(convertDecisionsResponse({ answers }, request)).toBeUndefined();
  });
});
