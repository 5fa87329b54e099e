import { isCount } from '../protocol/usage-counts.js';

/** Tokens a call read and wrote, and whether any figure is the gateway's own. */
export interface CheckedDecisionsUsage {
  input_tokens: number;
  output_tokens: number;
  estimated: boolean;
}

/** One call's figures: what it reported, the most it could be (decisionsBounds) and the gateway's own count. */
export interface DecisionsCallFigures {
  reported: { input?: unknown; output?: unknown };
  most: { input: number; output: number };
  counted: { input: number; output: number };
}

/**
 * The usage a decisions request is billed and answered with, summed over
 * its calls (one per question on a chat model, one on a decision model).
 * A reported figure wins when it is a count within its bound; otherwise the
 * gateway's count stands and `estimated` is set, so that what is billed
 * never passes what was reserved.
 */
export function decisionsUsage(calls: readonly DecisionsCallFigures[]): CheckedDecisionsUsage {
  let estimated = false;
  const pick = (value: unknown, most: number, counted: number): number => {
    if (isCount(value) && value <= most) return value;
    estimated = true;
    return Math.min(counted, most);
  };
  let input = 0;
  let output = 0;
  for (const { reported, most, counted } of calls) {
    input += pick(reported.input, most.input, counted.input);
    output += pick(reported.output, most.output, counted.output);
  }
  return { input_tokens: input, output_tokens: output, estimated };
}
