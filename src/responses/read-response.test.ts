import { describe, expect, it } from 'vitest';
import { AnswerText } from '../chat/estimate-tokens.js';
import type { ResponsesOutputItem } from '../protocol/responses.js';
import { answerTextOfResponse, eventText, generatedTextOf, newItemId, responseFinishReason } from './read-response.js';

const output: ResponsesOutputItem[] = [
  { type: 'reasoning', id: 'rs', summary: [{ type: 'summary_text', text: 'ab' }], content: null },
  {
    type: 'message',
    id: 'm',
    role: 'assistant',
    status: 'completed',
    content: [
      { type: 'output_text', text: 'cde', annotations: [] },
      { type: 'refusal', refusal: 'f' },
    ],
  },
  { type: 'function_call', id: 'fc', call_id: 'c', name: 'gh', arguments: 'ij', status: 'completed' },
];

describe('read-response', () => {
  it("counts a Response's text: messages, reasoning and calls", () => {
    const answer = answerTextOfResponse(output);
    expect(answer.chars).toBe(10);
    expect(answer.pieces).toBe(2);
  });

  it("reads a Response's status as a finish reason", () => {
    expect(responseFinishReason({ status: 'completed', incomplete_details: null, output })).toBe('tool_calls');
    expect(responseFinishReason({ status: 'completed', incomplete_details: null, output: [output[1]!] })).toBe('stop');
    expect(responseFinishReason({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] })).toBe('length');
    expect(responseFinishReason({ status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: [] })).toBe(
      'content_filter',
    );
    expect(responseFinishReason({ status: 'failed', incomplete_details: null, output: [] })).toBe('error');
  });

  it('counts the deltas and function names of events', () => {
    const answer = new AnswerText();
    eventText({ type: 'response.output_text.delta', sequence_number: 1, delta: 'abc' }, answer);
    eventText({ type: 'response.output_item.added', sequence_number: 2, item: { type: 'function_call', name: 'fn' } }, answer);
    eventText({ type: 'response.function_call_arguments.delta', sequence_number: 3, delta: '{}' }, answer);
    eventText({ type: 'response.output_text.done', sequence_number: 4, text: 'abc' }, answer);
    expect(answer.chars).toBe(7);
    expect(answer.pieces).toBe(2);
  });

  it("keeps a Response's text and reasoning as stored content", () => {
    expect(generatedTextOf(output)).toEqual({ completion: 'cde', reasoning: 'ab' });
    expect(generatedTextOf([])).toEqual({ completion: null, reasoning: null });
  });

  it('makes item ids with their prefix', () => {
    expect(newItemId('msg')).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(newItemId('msg')).not.toBe(newItemId('msg'));
  });
});
