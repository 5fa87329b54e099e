import { words } from '../../providers/local/bm25-relevance.js';

/**
 * The simulator's deterministic judgement of options against a state: each
 * option's odds grow by e with every distinct word of its text the state
 * holds, so the option that shares most with the state is the likeliest,
 * and options the state says nothing of are equally likely. Probabilities
 * in option order, summing to 1.
 */
export function optionOdds(state: string, options: readonly string[]): number[] {
  const held = new Set(words(state));
  const weights = options.map((text) => Math.exp(new Set(words(text).filter((word) => held.has(word))).size));
  const total = weights.reduce((sum, w) => sum + w, 0);
  return weights.map((w) => w / total);
}
