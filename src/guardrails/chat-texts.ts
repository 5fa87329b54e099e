import type { ChatMessage, ChatRequest } from '../protocol/chat.js';
import type { ScannedText } from './scan-content.js';

/** Every text of a chat request's messages (string contents and text parts), in order, with its role. */
export function chatTexts(request: Pick<ChatRequest, 'messages'>): ScannedText[] {
  const texts: ScannedText[] = [];
  for (const message of request.messages) {
    if (typeof message.content === 'string') texts.push({ role: message.role, text: message.content });
    else if (Array.isArray(message.content))
      for (const part of message.content) if (part.type === 'text') texts.push({ role: message.role, text: part.text });
  }
  return texts;
}

/** The request with its texts replaced, in chatTexts' order; everything else is kept as it was. */
export function withChatTexts<R extends Pick<ChatRequest, 'messages'>>(request: R, texts: readonly ScannedText[]): R {
  let next = 0;
  const take = () => texts[next++]?.text ?? '';
  const messages = request.messages.map((message): ChatMessage => {
    if (typeof message.content === 'string') return { ...message, content: take() } as ChatMessage;
    if (!Array.isArray(message.content)) return message;
    return { ...message, content: message.content.map((part) => (part.type === 'text' ? { ...part, text: take() } : part)) } as ChatMessage;
  });
  return { ...request, messages };
}
