import type { OpenAIMessage } from './openai-chat-api-types.js';

/**
 * Text and reasoning of a message or delta, whichever way the host sends
 * them: `reasoning` (Groq, vLLM), `reasoning_content` (DeepSeek), or content
 * as an array of text and thinking parts (Mistral's Magistral). Null and
 * absent both come back as undefined.
 */
export function convertOpenAIMessageText(message: OpenAIMessage): { content?: string; reasoning?: string } {
  let content: string | undefined;
  let reasoning = message.reasoning ?? message.reasoning_content ?? undefined;
  if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (part.type === 'text') content = (content ?? '') + (part.text ?? '');
      else if (part.type === 'thinking') reasoning = (reasoning ?? '') + textOf(part.thinking ?? []);
    }
  } else {
    content = message.content ?? undefined;
  }
  return { content, reasoning };
}

function textOf(parts: { text?: string }[]): string {
  return parts.map((part) => part.text ?? '').join('');
}
