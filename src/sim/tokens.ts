import type { ChatMessage, FunctionTool } from '../protocol/chat.js';

/**
 * The simulator's notion of a token, close enough to BPE for chunking and
 * counting: a run of letters/digits or a run of punctuation, each with the
 * whitespace before it. Joining the tokens gives back the text exactly.
 */
const TOKEN = /\s*[\p{L}\p{N}_]+|\s*[^\s\p{L}\p{N}_]+|\s+$/gu;

export const splitTokens = (text: string): string[] => text.match(TOKEN) ?? [];

/** The text of a message's content, whether a string or text parts. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: unknown; text?: unknown }) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join(' ');
}

/**
 * prompt_tokens: the characters of every message's text plus the JSON of the
 * tool definitions, divided by 4 and rounded up (at least 1). Cheap on purpose:
 * the benchmark sends large prompts at thousands of requests per second.
 */
export function countPromptTokens(messages: readonly ChatMessage[], tools: readonly FunctionTool[] | undefined): number {
  let characters = tools ? JSON.stringify(tools).length : 0;
  for (const message of messages) characters += messageText(message.content).length;
  return Math.max(1, Math.ceil(characters / 4));
}
