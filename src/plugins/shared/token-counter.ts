import { encodingPieces } from './encoding-pieces.js';

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

/** A tokenizer's two operations on text that needs no cutting. */
interface Encoding {
  encode(text: string): number[];
  decode(tokens: number[]): string;
}

/** The tokens of a text, each of its encodingPieces encoded apart: time linear in the text, however long a run in it. */
function encodeBounded(encoding: Encoding, text: string): number[] {
  const pieces = encodingPieces(text);
  if (pieces.length === 1) return encoding.encode(text);
  const tokens: number[] = [];
  for (const piece of pieces) for (const token of encoding.encode(piece)) tokens.push(token);
  return tokens;
}

/** A TokenCounter on an encoding, with long runs cut before they reach it. */
export function boundedTokenCounter(encoding: Encoding): TokenCounter {
  const encode = (text: string) => encodeBounded(encoding, text);
  return {
    count: (text) => encode(text).length,
    head: (text, maxTokens) => encoding.decode(encode(text).slice(0, Math.max(0, maxTokens))),
    tail: (text, maxTokens) => (maxTokens <= 0 ? '' : encoding.decode(encode(text).slice(-maxTokens))),
  };
}

/**
 * Characters encoded between two clearings of the tokenizer's merge cache
 * (which saves half the time on prose, its words recurring). It holds at most
 * one entry per two characters encoded since it was cleared, so this bounds
 * its memory (some 10 MB); it is emptied at once rather than entry by entry,
 * since the library's eviction of its oldest entry scans past every entry
 * deleted before it (128,000 distinct words took 4× longer with 10,000
 * entries at most than with none evicted).
 */
const MERGE_CACHE_WINDOW = 1_000_000;

/** Special tokens (`<|endoftext|>`) in a client's text are text: counted as such, never refused. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

let loading: Promise<TokenCounter> | undefined;

/**
 * OpenAI's o200k_base encoding (gpt-tokenizer, pure JS). Providers tokenize
 * differently, so counts are an estimate for non-OpenAI models, but a real
 * BPE estimate rather than characters over four. Loaded on first use: its
 * tables cost about 70 MB and 0.2 s, which a gateway that never compresses a
 * prompt or fetches a page should not pay.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer').then(({ encode, decode, setMergeCacheSize, clearMergeCache }) => {
    setMergeCacheSize(MERGE_CACHE_WINDOW / 2);
    let encoded = 0;
    const encodeCached = (text: string) => {
      encoded += text.length;
      if (encoded > MERGE_CACHE_WINDOW) {
        clearMergeCache();
        encoded = text.length;
      }
      return encode(text, AS_TEXT);
    };
    return boundedTokenCounter({ encode: encodeCached, decode });
  });
  return loading;
}
