import type { ChatMessage } from '../../protocol/chat.js';
import type { TokenCounter } from '../shared/token-counter.js';

/** What each message costs beyond its text in OpenAI's chat format (role and separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** The text of message content: the string, or its text parts joined. */
export function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/**
 * A message's tokens: its content's text, tool calls and reasoning, plus the
 * per-message overhead. Images, audio and files are not counted: what they
 * cost depends on the provider (PDFs that file-parser turned into text are
 * counted as text).
 */
export function messageTokens(message: ChatMessage, tokens: TokenCounter): number {
  let count = tokens.count(contentText(message.content)) + MESSAGE_OVERHEAD_TOKENS;
  if (message.role === 'assistant') {
    for (const call of message.tool_calls ?? []) count += tokens.count(call.function.name) + tokens.count(call.function.arguments);
    if (message.reasoning) count += tokens.count(message.reasoning);
  }
  return count;
}
