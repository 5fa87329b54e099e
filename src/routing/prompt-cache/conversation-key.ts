import { createHash } from 'node:crypto';
import type { ChatMessage, ChatRequest } from '../../protocol/chat.js';

const INSTRUCTIONS = new Set(['system', 'developer']);

/**
 * What identifies a conversation for prompt-cache stickiness: the request's
 * `prompt_cache_key` when it has one, else a hash of the conversation's
 * opening (its first system or developer message and its first other
 * message), which every later turn repeats as the start of its prompt, the
 * part a provider caches. Requests with the same opening share a cached
 * prefix, so they share the key too.
 */
export function conversationKey(request: Pick<ChatRequest, 'messages' | 'prompt_cache_key'>): string {
  if (request.prompt_cache_key) return `key:${request.prompt_cache_key}`;
  let instructions: ChatMessage | undefined;
  let opening: ChatMessage | undefined;
  for (const message of request.messages) {
    if (INSTRUCTIONS.has(message.role)) instructions ??= message;
    else opening ??= message;
    if (instructions && opening) break;
  }
  const hash = createHash('sha256');
  for (const message of [instructions, opening]) hash.update(JSON.stringify(message ? [message.role, message.content] : null));
  return `opening:${hash.digest('base64url')}`;
}
