import type { ChatMessage, ContentPart, TextPart } from '../../protocol/chat.js';
import { isRecord } from '../../util/is-record.js';
import { pushAll } from '../../util/push-all.js';
import { parseJson } from '../shared/parse-json.js';
import { convertUrlToGeminiPart } from './convert-url-to-gemini-part.js';
import type { GeminiContent, GeminiPart, GeminiRequest } from './gemini-api-types.js';

/**
 * Google's documented stand-in for a thought signature we do not have: the
 * canonical messages cannot carry Gemini's signatures, and Gemini 3 refuses
 * a replayed function call without one.
 */
const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Gemini's contents and systemInstruction for the canonical messages.
 * System and developer messages, wherever they stand, join the one
 * systemInstruction Gemini has. Assistant turns become "model" turns with
 * their text and function calls (reasoning is dropped: Gemini takes thoughts
 * back only as signatures). Tool results become functionResponse parts of a
 * user turn, named after the call they answer (Gemini's calls have no ids),
 * and consecutive results share one turn, as Gemini wants the answers to
 * parallel calls. Empty text is left out: Gemini refuses empty parts. A
 * conversation of instructions only would leave `contents` empty, which
 * Gemini refuses: its instructions become the user turn instead.
 */
export function convertToGeminiContents(
  messages: readonly ChatMessage[],
  options: { signFunctionCalls: boolean },
): Pick<GeminiRequest, 'contents' | 'systemInstruction'> {
  const systemParts: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  const toolNames = new Map<string, string>();
  const add = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length > 0) contents.push({ role, parts });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        pushAll(systemParts, textParts(message.content));
        break;
      case 'user':
        add('user', typeof message.content === 'string' ? textParts(message.content) : message.content.flatMap(convertUserPart));
        break;
      case 'assistant': {
        const calls = (message.tool_calls ?? []).map((call, position): GeminiPart => {
          toolNames.set(call.id, call.function.name);
          const part: GeminiPart = { functionCall: { name: call.function.name, args: parseArguments(call.function.arguments) } };
          // Gemini signs only the first call of a turn, so only the first needs the stand-in.
          if (position === 0 && options.signFunctionCalls) part.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
          return part;
        });
        add('model', [...textParts(message.content ?? ''), ...calls]);
        break;
      }
      case 'tool': {
        const part: GeminiPart = {
          functionResponse: {
            name: toolNames.get(message.tool_call_id) ?? message.tool_call_id,
            response: toolResponse(textOf(message.content)),
          },
        };
        const last = contents.at(-1);
        if (last?.role === 'user' && last.parts.every((existing) => existing.functionResponse)) last.parts.push(part);
        else contents.push({ role: 'user', parts: [part] });
        break;
      }
    }
  }
  if (contents.length === 0 && systemParts.length > 0) return { contents: [{ role: 'user', parts: systemParts }] };
  return systemParts.length > 0 ? { systemInstruction: { parts: systemParts }, contents } : { contents };
}

function convertUserPart(part: ContentPart): GeminiPart[] {
  switch (part.type) {
    case 'text':
      return textParts(part.text);
    case 'image_url':
      return [convertUrlToGeminiPart(part.image_url.url)];
    case 'input_audio':
      return [{ inlineData: { mimeType: `audio/${part.input_audio.format}`, data: part.input_audio.data } }];
    case 'file': {
      const source = part.file.file_data ?? part.file.file_id;
      return source === undefined ? [] : [convertUrlToGeminiPart(source, part.file.filename)];
    }
  }
}

function textParts(content: string | TextPart[]): GeminiPart[] {
  const texts = typeof content === 'string' ? [content] : content.map((part) => part.text);
  return texts.filter((text) => text !== '').map((text) => ({ text }));
}

function textOf(content: string | TextPart[]): string {
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

/** Gemini's args is an object: arguments that are not a JSON object (a client's broken echo) are sent as none. */
function parseArguments(text: string): Record<string, unknown> {
  const parsed = parseJson(text);
  return isRecord(parsed) ? parsed : {};
}

/**
 * Gemini's response is an object too: a JSON object result goes as it is
 * (Gemini reads the whole object as the output), anything else under
 * "output", the key Google documents for it.
 */
function toolResponse(text: string): Record<string, unknown> {
  const parsed = parseJson(text);
  return isRecord(parsed) ? parsed : { output: text };
}
