import { describe, expect, it } from 'vitest';
import { answerText, interactionArguments, interactionId, parsePending } from './interaction-answer.js';

const approval = { kind: 'approval' as const, id: 'c1', name: 'notify' };
const question = { kind: 'question' as const, id: 'q1', question: 'Which city?' };

describe('interaction answers', () => {
  it('reads the pending row the runtime writes, and nothing else', () => {
    expect(parsePending(JSON.stringify({ kind: 'approval', id: 'c1', name: 'notify', arguments: '{}' }))).toEqual(approval);
    expect(parsePending(JSON.stringify({ kind: 'question', id: 'q1', question: 'Which city?' }))).toEqual(question);
    expect(parsePending('{"kind":"approval"}')).toBeUndefined();
    expect(parsePending('not json')).toBeUndefined();
    expect(parsePending(null)).toBeUndefined();
  });

  it('shapes provide_input arguments as the SDK documents them', () => {
    expect(interactionId(approval)).toBe('c1');
    expect(JSON.parse(interactionArguments(approval))).toEqual({
      kind: 'permission',
      operation: 'notify',
      options: ['allow_once', 'reject_once'],
    });
    expect(JSON.parse(interactionArguments(question))).toMatchObject({
      kind: 'elicitation',
      message: 'Which city?',
      fields: [{ name: 'answer' }],
    });
  });

  it('turns permission kinds into a grant or a refusal, and keeps free text', () => {
    expect(answerText(approval, 'allow_once')).toBe('approve');
    expect(answerText(approval, 'allow_always')).toBe('approve');
    expect(answerText(approval, 'reject_once')).toMatch(/refused/);
    expect(answerText(approval, 'cancel')).toMatch(/cancelled/);
    expect(answerText(approval, 'yes')).toBe('yes');
  });

  it('turns an elicitation reply into its answer', () => {
    expect(answerText(question, JSON.stringify({ action: 'accept', content: { answer: 'Paris' } }))).toBe('Paris');
    expect(answerText(question, JSON.stringify({ action: 'accept', content: { city: 'Paris' } }))).toBe('{"city":"Paris"}');
    expect(answerText(question, '{"action":"decline"}')).toMatch(/declined/);
    expect(answerText(question, '{"action":"cancel"}')).toMatch(/cancelled/);
    expect(answerText(question, 'Paris')).toBe('Paris');
    expect(answerText(question, '{"city":"Paris"}')).toBe('{"city":"Paris"}');
  });
});
