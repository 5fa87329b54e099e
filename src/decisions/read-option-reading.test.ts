import { describe, expect, it } from 'vitest';
import type { ChatCompletion } from '../protocol/chat.js';
import { readOptionReading } from './read-option-reading.js';

const completion = (content: string | null, logprobs?: unknown): ChatCompletion => ({
  id: 'c1',
  object: 'chat.completion',
  created: 0,
  model: 'm',
  system_fingerprint: 'fp',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'length', logprobs }],
});
const alt = (token: string, p: number) => ({ token, logprob: Math.log(p), bytes: [] });

describe('readOptionReading', () => {
  it("adds the probabilities of every token naming a letter from the first token's top_logprobs, ignoring other tokens", () => {
    const logprobs = {
      content: [
        {
          token: 'B',
          logprob: Math.log(0.5),
          top_logprobs: [alt('B', 0.5), alt(' b', 0.1), alt('A', 0.3), alt('The', 0.05), alt('Z', 0.05)],
        },
      ],
    };
    const reading = readOptionReading(completion('B', logprobs), 3);
    expect(reading.kind).toBe('probabilities');
    const { probabilities } = reading as { kind: 'probabilities'; probabilities: readonly number[] };
    expect(probabilities[0]).toBeCloseTo(0.3, 12);
    expect(probabilities[1]).toBeCloseTo(0.6, 12);
    expect(probabilities[2]).toBe(0);
  });

  it('without logprobs, the letter answered, its odds unknown', () => {
    expect(readOptionReading(completion(' c\n'), 3)).toEqual({ kind: 'picked', index: 2 });
    expect(readOptionReading(completion('A', { content: [] }), 2)).toEqual({ kind: 'picked', index: 0 });
  });

  it('an answer that is no option letter is malformed', () => {
    expect(() => readOptionReading(completion('Maybe'), 2)).toThrow(/not one of the option letters/);
    expect(() => readOptionReading(completion('C'), 2)).toThrow(/not one of the option letters/);
  });
});
