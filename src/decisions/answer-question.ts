import { questionOptions } from '../protocol/decision-options.js';
import type { DecisionAnswer, DecisionQuestion, OptionReading } from '../protocol/decisions.js';

/** Six decimals: sums stay 1 within rounding, and no caller reads finer. */
const round = (value: number): number => Math.round(value * 1e6) / 1e6;

/**
 * The answer of a question from what the model said of its options: the
 * likeliest option with its probability as confidence; a noul is the
 * probability of yes; a score the probability-weighted position. A picked
 * option without probabilities (an endpoint without logprobs) has neither
 * confidence nor probabilities: the gateway does not know them (absent, not
 * null: the reference's clients take a number or nothing), and a noul is
 * then 1 or 0.
 */
export function answerQuestion(question: DecisionQuestion, reading: OptionReading): DecisionAnswer {
  const options = questionOptions(question);
  const probabilities =
    reading.kind === 'probabilities' ? normalize(reading.probabilities) : options.map((_, i) => (i === reading.index ? 1 : 0));
  const known = reading.kind === 'probabilities';
  const best = probabilities.reduce((top, p, i) => (p > probabilities[top]! ? i : top), 0);
  const odds = known
    ? {
        probabilities: Object.fromEntries(options.map((option, i) => [option.key, round(probabilities[i]!)])),
        confidence: round(probabilities[best]!),
      }
    : {};
  switch (question.type) {
    case 'noul':
      return { type: 'noul', noul: round(probabilities[0]!) };
    case 'choice':
      return { type: 'choice', choice: options[best]!.key, ...odds };
    case 'score':
      return {
        type: 'score',
        score: round(probabilities.reduce((sum, p, i) => sum + p * i, 0)),
        legend: Object.fromEntries(options.map((option) => [option.key, option.text])),
        ...odds,
      };
  }
}

/** Scaled to sum to 1; all-zero (nothing said of any option) stays uniform rather than dividing by 0. */
function normalize(values: readonly number[]): number[] {
  const total = values.reduce((sum, v) => sum + v, 0);
  return total > 0 ? values.map((v) => v / total) : values.map(() => 1 / values.length);
}
