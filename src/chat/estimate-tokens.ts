import { messageTokens } from '../plugins/context-compression/message-tokens.js';
import type { TokenCounter } from '../plugins/shared/token-counter.js';
import type { ChatMessage, ChatRequest } from '../protocol/chat.js';

/**
 * A rough token count (four characters a token) where a tokenizer pass would
 * cost more than the figure is worth: routing features, a rerank's tokens.
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

/**
 * The prompt's tokens as the tokenizer counts what the gateway sends: each
 * message (text, tool calls, reasoning, with its framing), the tool
 * definitions and a JSON schema to answer in. Images, audio and files are
 * not counted: what they cost depends on the provider.
 */
export function countPromptTokens(request: Pick<ChatRequest, 'messages' | 'tools' | 'response_format'>, tokens: TokenCounter): number {
  let count = 0;
  for (const message of request.messages) count += messageTokens(message, tokens);
  if (request.tools?.length) count += tokens.count(JSON.stringify(request.tools));
  if (request.response_format?.type === 'json_schema') count += tokens.count(JSON.stringify(request.response_format.json_schema));
  return count;
}

/** Answer text kept for a local count: past it (a million tokens, more than any model writes at once) the count is scaled. */
const KEPT_ANSWER_CHARS = 4 * 1024 * 1024;

/**
 * What the gateway received of an answer: its size in characters and pieces
 * (choices and tool calls), always, and its text, kept to be counted only
 * when the upstream's figure cannot be billed.
 */
export class AnswerText {
  chars = 0;
  pieces = 1;
  private readonly kept: string[] = [];
  private keptChars = 0;

  add(text: string | null | undefined): void {
    if (!text) return;
    this.chars += text.length;
    if (this.keptChars >= KEPT_ANSWER_CHARS) return;
    this.kept.push(text);
    this.keptChars += text.length;
  }

  /** A further choice or tool call: its framing counts toward what the answer could hold. */
  addPiece(): void {
    this.pieces++;
  }

  count(tokens: TokenCounter): number {
    if (this.keptChars === 0) return 0;
    const counted = tokens.count(this.kept.join(''));
    return this.keptChars >= this.chars ? counted : Math.ceil((counted * this.chars) / this.keptChars);
  }
}
