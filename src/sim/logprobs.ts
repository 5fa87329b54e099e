/**
 * Plausible, deterministic logprobs in OpenAI's chat shape:
 * `{content: [{token, logprob, bytes, top_logprobs: [{token, logprob, bytes}]}], refusal: null}`.
 * The chosen token is always the most likely one; the alternatives are common tokens.
 */
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

/** `position` is the token's index in the whole reply, so chunked and whole replies agree. */
function tokenLogprob(token: string, position: number, topCount: number) {
  const logprob = -(1 + (position % 7)) / 100;
  const alternatives = ALTERNATIVES.filter((alternative) => alternative !== token)
    .slice(0, Math.max(0, topCount - 1))
    .map((alternative, rank) => entry(alternative, Number((logprob - 2 - rank).toFixed(4))));
  return { ...entry(token, logprob), top_logprobs: topCount > 0 ? [entry(token, logprob), ...alternatives] : [] };
}

export const chatLogprobs = (tokens: readonly string[], firstPosition: number, topCount: number): ChatLogprobs => ({
  content: tokens.map((token, i) => tokenLogprob(token, firstPosition + i, topCount)),
  refusal: null,
});
