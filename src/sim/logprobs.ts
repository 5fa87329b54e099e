/**
 * Plausible, deterministic logprobs in OpenAI's chat shape:
 * `{content: [{token, logprob, bytes, top_logprobs: [{token, logprob, bytes}]}], refusal: null}`.
 * The chosen token is always the most likely one; the alternatives are common tokens.
 */
import type { LetterOdds } from './decisions/multiple-choice.js';

export interface TokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
}
export interface ChatLogprobs {
  content: (TokenLogprob & { top_logprobs: TokenLogprob[] })[];
  refusal: null;
}

const ALTERNATIVES = [
  ' the',
  ',',
  ' a',
  ' and',
  '.',
  ' of',
  ' to',
  ' is',
  ' in',
  ' that',
  ' it',
  ' for',
  ' on',
  ' with',
  ' as',
  ' was',
  ' at',
  ' by',
  ' this',
  ' be',
];

const entry = (token: string, logprob: number): TokenLogprob => ({ token, logprob, bytes: [...Buffer.from(token, 'utf8')] });

/**
 * `position` is the token's index in the whole reply, so chunked and whole
 * replies agree. `first`, when given, is the model's own distribution of the
 * reply's first token (a multiple-choice letter's: multiple-choice.ts),
 * likeliest first: it leads that token's top_logprobs.
 */
function tokenLogprob(token: string, position: number, topCount: number, first?: readonly LetterOdds[]) {
  if (position === 0 && first?.[0]?.letter === token) {
    const leading = first.map((o) => entry(o.letter, Number(Math.log(o.probability).toFixed(6))));
    const rest = ALTERNATIVES.map((alternative, rank) => entry(alternative, Number((-6 - rank).toFixed(4))));
    return { ...leading[0]!, top_logprobs: [...leading, ...rest].slice(0, topCount) };
  }
  const logprob = -(1 + (position % 7)) / 100;
  const alternatives = ALTERNATIVES.filter((alternative) => alternative !== token)
    .slice(0, Math.max(0, topCount - 1))
    .map((alternative, rank) => entry(alternative, Number((logprob - 2 - rank).toFixed(4))));
  return { ...entry(token, logprob), top_logprobs: topCount > 0 ? [entry(token, logprob), ...alternatives] : [] };
}

export const chatLogprobs = (
  tokens: readonly string[],
  firstPosition: number,
  topCount: number,
  first?: readonly LetterOdds[],
): ChatLogprobs => ({
  content: tokens.map((token, i) => tokenLogprob(token, firstPosition + i, topCount, first)),
  refusal: null,
});
