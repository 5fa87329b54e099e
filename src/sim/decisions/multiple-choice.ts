import { optionOdds } from './option-odds.js';

/** An option's letter with the probability the simulated model gives it as its next token. */
export interface LetterOdds {
  letter: string;
  probability: number;
}

const OPTION_LINE = /^([A-Z])[.)] (.+)$/gm;
const ASKS_FOR_A_LETTER = /answer with (?:one|a single) letter/i;

/** What the simulated model keeps for tokens other than the letters: a model that was asked for a letter rarely writes anything else. */
const OTHER_MASS = 0.03;

/**
 * A multiple-choice question, as a model reads one: lettered option lines
 * ("A. …" or "A) …") and a request to answer with one letter. The letters'
 * odds come from how much of each option the rest of the message holds
 * (option-odds.ts), likeliest first; undefined when the message asks no such question.
 */
export function multipleChoice(text: string): LetterOdds[] | undefined {
  if (!ASKS_FOR_A_LETTER.test(text)) return undefined;
  const options = [...text.matchAll(OPTION_LINE)].map((m) => ({ letter: m[1]!, text: m[2]! }));
  if (options.length < 2) return undefined;
  const state = text.replace(OPTION_LINE, '');
  const odds = optionOdds(
    state,
    options.map((o) => o.text),
  );
  return options
    .map((o, i) => ({ letter: o.letter, probability: odds[i]! * (1 - OTHER_MASS) }))
    .sort((a, b) => b.probability - a.probability || a.letter.localeCompare(b.letter));
}
