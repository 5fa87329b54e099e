import { tokenCapacity } from '../accounting/check-usage.js';
import { loadTokenCounter } from '../plugins/shared/token-counter.js';
import type { EmbeddingsInput, ReportedEmbeddingsUsage } from '../protocol/embeddings.js';
import { isCount } from '../protocol/usage-counts.js';

/** The input's tokens as the gateway counts them: the project's tokenizer over each text, the token arrays' own length. */
export async function countInputTokens(input: EmbeddingsInput): Promise<number> {
  if (input.kind === 'tokens') return input.tokens.reduce((sum, tokens) => sum + tokens.length, 0);
  const { count } = await loadTokenCounter();
  return input.texts.reduce((sum, text) => sum + count(text), 0);
}

/**
 * The most tokens a provider can have read: tokenCapacity of the texts (a
 * token holds at least a byte), or exactly the tokens sent.
 */
export function inputTokenBound(input: EmbeddingsInput): number {
  if (input.kind === 'tokens') return input.tokens.reduce((sum, tokens) => sum + tokens.length, 0);
  return tokenCapacity(
    input.texts.reduce((sum, text) => sum + text.length, 0),
    input.texts.length,
  );
}

/**
 * The input tokens an embeddings request is billed and answered with: what
 * the provider reported when it is a count of at least one token within
 * inputTokenBound, else the gateway's own count (countInputTokens; Gemini
 * reports none), with `estimated` saying so.
 */
export async function embeddingsUsage(
  reported: ReportedEmbeddingsUsage,
  input: EmbeddingsInput,
): Promise<{ tokens: number; estimated: boolean }> {
  const tokens = reported.prompt_tokens;
  if (isCount(tokens) && tokens >= 1 && tokens <= inputTokenBound(input)) return { tokens, estimated: false };
  return { tokens: await countInputTokens(input), estimated: true };
}
