import type { ChatMessage } from './types.js';

/**
 * A rough token count (four characters a token) for when an upstream never
 * reported usage: a cancelled stream is billed for what it consumed.
 */
export const estimateTokens = (text: string) => Math.ceil(text.length / 4);

export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    if (typeof m.content === 'string') chars += m.content.length;
    else if (Array.isArray(m.content)) for (const part of m.content) if (part.type === 'text') chars += part.text.length;
  }
  return Math.ceil(chars / 4);
}
