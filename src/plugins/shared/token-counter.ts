/**
 * Counts and cuts text in tokens. The plugins measure prompts and fetched
 * pages with it; `loadTokenCounter` gives the real one, tests may pass any.
 */
export interface TokenCounter {
  count(text: string): number;
  /** The longest prefix of `text` that is at most `maxTokens` tokens. */
  head(text: string, maxTokens: number): string;
  /** The longest suffix of `text` that is at most `maxTokens` tokens. */
  tail(text: string, maxTokens: number): string;
}

let loading: Promise<TokenCounter> | undefined;

/**
 * OpenAI's o200k_base encoding (gpt-tokenizer, pure JS). Providers tokenize
 * differently, so counts are an estimate for non-OpenAI models, but a real
 * BPE estimate rather than characters over four. Loaded on first use: its
 * tables cost about 70 MB and 0.2 s, which a gateway that never compresses a
 * prompt or fetches a page should not pay.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer').then(({ encode, decode }) => ({
    count: (text) => encode(text).length,
    head: (text, maxTokens) => decode(encode(text).slice(0, Math.max(0, maxTokens))),
    tail: (text, maxTokens) => (maxTokens <= 0 ? '' : decode(encode(text).slice(-maxTokens))),
  }));
  return loading;
}
