import type { ChatMessage, ChatRequest } from '../protocol/chat.js';

/** Tokens of framing per message (role markers) and per request (the reply's priming), as OpenAI counts chat prompts. */
const PER_MESSAGE_TOKENS = 4;
const PER_REQUEST_TOKENS = 3;

/**
 * Tokens counted for a part that is not text (an image, audio, a file the
 * gateway did not turn into text): the tokens a large image costs on the
 * providers that bill images by the token (about 1,100 to 1,600).
 */
export const NON_TEXT_PART_TOKENS = 1_600;

/**
 * Tokens counted for the system prompt a provider adds of its own when a
 * request gives tools or a response schema: Anthropic documents up to 346
 * for its tool use (and serves a JSON schema as structured outputs or a
 * forced tool, whose prompt it bills alike).
 */
export const TOOLS_SYSTEM_TOKENS = 350;

/** The text a message sends: its content's text, and the tool calls an assistant made. */
function messageText(message: ChatMessage, texts: string[]): number {
  let parts = 0;
  const { content } = message;
  if (typeof content === 'string') texts.push(content);
  else if (Array.isArray(content))
    for (const part of content) {
      if (part.type === 'text') texts.push(part.text);
      else parts++;
    }
  if (message.role === 'assistant') for (const call of message.tool_calls ?? []) texts.push(call.function.name, call.function.arguments);
  return parts;
}

/**
 * The prompt of a chat request as the gateway counts it before sending it:
 * the tokens of its messages' text, its tool definitions, its response
 * schema and its predicted output (`count`, the project's tokenizer), plus
 * the framing of each message, plus NON_TEXT_PART_TOKENS per image, audio
 * or file part, plus TOOLS_SYSTEM_TOKENS when tools or a schema are given.
 * Providers tokenize differently; the settlement bills what the upstream
 * reports.
 */
export function promptTokens(
  request: Pick<ChatRequest, 'messages' | 'tools' | 'response_format' | 'prediction'>,
  count: (text: string) => number,
): number {
  const texts: string[] = [];
  let nonText = 0;
  for (const message of request.messages) nonText += messageText(message, texts);
  const schema = request.response_format?.type === 'json_schema' ? request.response_format.json_schema : undefined;
  if (request.tools?.length) texts.push(JSON.stringify(request.tools));
  if (schema) texts.push(JSON.stringify(schema));
  const predicted = request.prediction?.content;
  if (typeof predicted === 'string') texts.push(predicted);
  else if (predicted) for (const part of predicted) texts.push(part.text);
  const toolsPrompt = request.tools?.length || schema ? TOOLS_SYSTEM_TOKENS : 0;
  return (
    count(texts.join('\n')) +
    request.messages.length * PER_MESSAGE_TOKENS +
    PER_REQUEST_TOKENS +
    nonText * NON_TEXT_PART_TOKENS +
    toolsPrompt
  );
}
