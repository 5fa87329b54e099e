import type { ChatMessage, FunctionTool, ToolChoice } from '../../protocol/chat.js';
import type { SimChatRequest } from '../reply.js';
import { type GoogleError, GoogleErrors } from './google-errors.js';

/**
 * A generateContent request the simulator accepted, read into the chat
 * request its reply is planned from, and how the simulated model thinks.
 */
export interface SimGenerateContentRequest {
  chat: SimChatRequest;
  /** Asked for thinking: a non-zero budget, a level, or just the thoughts. */
  thinks: boolean;
  /** The googleSearch tool was given: the simulated model grounds its answer in the simulated web. */
  searches: boolean;
  /** The thoughts go out as `thought: true` parts. */
  includeThoughts: boolean;
}

export type ReadResult = { ok: true; request: SimGenerateContentRequest } | { ok: false; error: GoogleError };

type Json = Record<string, unknown>;

const REQUEST_FIELDS = [
  'model',
  'contents',
  'tools',
  'toolConfig',
  'safetySettings',
  'systemInstruction',
  'generationConfig',
  'cachedContent',
];
const GENERATION_CONFIG_FIELDS = [
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'candidateCount',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
  'enableEnhancedCivicAnswers',
  'speechConfig',
  'thinkingConfig',
  'imageConfig',
  'mediaResolution',
];
const THINKING_CONFIG_FIELDS = ['includeThoughts', 'thinkingBudget', 'thinkingLevel'];
const THINKING_LEVELS = ['THINKING_LEVEL_UNSPECIFIED', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH'];

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A field by its JSON name; Google's JSON parser takes the proto's snake_case names too. */
const field = (object: Json, name: string): unknown => object[name] ?? object[snakeCase(name)];
const objectAt = (object: Json, name: string): Json => {
  const value = field(object, name);
  return isJson(value) ? value : {};
};
const arrayAt = (object: Json, name: string): unknown[] => {
  const value = field(object, name);
  return Array.isArray(value) ? value : [];
};

/** Google refuses any field it does not know, which is how a misspelt parameter shows up. */
function unknownField(object: Json, known: readonly string[], at?: string): GoogleError | undefined {
  const name = Object.keys(object).find((key) => !known.includes(camelCase(key)));
  return name === undefined ? undefined : GoogleErrors.invalidJson(`Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.`);
}

/**
 * The checks Google makes that an adapter can trip over, with Google's
 * wording: unknown fields (at the top, in generationConfig and in
 * thinkingConfig), missing contents or parts, roles other than user and
 * model, an unknown thinking level, and a thinking budget beside a level.
 * `model` is the name without the knob suffix.
 */
export function readGenerateContentRequest(body: unknown, model: string, stream: boolean): ReadResult {
  if (!isJson(body)) return { ok: false, error: GoogleErrors.invalidJson('Expected a JSON object.') };
  const config = objectAt(body, 'generationConfig');
  const thinking = objectAt(config, 'thinkingConfig');
  const unknown =
    unknownField(body, REQUEST_FIELDS) ??
    unknownField(config, GENERATION_CONFIG_FIELDS, 'generation_config') ??
    unknownField(thinking, THINKING_CONFIG_FIELDS, 'generation_config.thinking_config');
  if (unknown) return { ok: false, error: unknown };

  const contents = arrayAt(body, 'contents');
  if (contents.length === 0) return invalid('* GenerateContentRequest.contents: contents is not specified\n');
  for (const [i, content] of contents.entries()) {
    if (!isJson(content)) return invalid(`* GenerateContentRequest.contents[${i}]: must be an object\n`);
    if (content.role !== undefined && content.role !== 'user' && content.role !== 'model')
      return invalid('Please use a valid role: user, model.');
    if (arrayAt(content, 'parts').length === 0)
      return invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`);
  }

  const level = field(thinking, 'thinkingLevel');
  if (level !== undefined && (typeof level !== 'string' || !THINKING_LEVELS.includes(level.toUpperCase()))) {
    return invalid(
      `Invalid value at 'generation_config.thinking_config.thinking_level' (type.googleapis.com/google.ai.generativelanguage.v1beta.ThinkingConfig.ThinkingLevel), ${JSON.stringify(level)}`,
    );
  }
  const budget = field(thinking, 'thinkingBudget');
  if (level !== undefined && budget !== undefined) return invalid('You can only set one of thinking budget and thinking level.');

  const includeThoughts = field(thinking, 'includeThoughts') === true;
  return {
    ok: true,
    request: {
      chat: toChatRequest(body, config, model, stream),
      thinks: Object.keys(thinking).length > 0 && budget !== 0,
      searches: arrayAt(body, 'tools').some(
        (tool) => isJson(tool) && (field(tool, 'googleSearch') !== undefined || field(tool, 'google_search') !== undefined),
      ),
      includeThoughts,
    },
  };
}

const invalid = (message: string): ReadResult => ({ ok: false, error: GoogleErrors.invalidArgument(message) });

/** The chat request planReply understands: the texts, the tools and the limits that shape the reply. */
function toChatRequest(body: Json, config: Json, model: string, stream: boolean): SimChatRequest {
  const system = texts(arrayAt(objectAt(body, 'systemInstruction'), 'parts'));
  const messages: ChatMessage[] = system ? [{ role: 'system', content: system }] : [];
  for (const content of arrayAt(body, 'contents') as Json[]) messages.push(...toMessages(content));

  const tools: FunctionTool[] = arrayAt(body, 'tools').flatMap((tool) =>
    isJson(tool)
      ? arrayAt(tool, 'functionDeclarations')
          .filter(isJson)
          .map(
            (declaration): FunctionTool => ({
              type: 'function',
              function: {
                name: String(declaration.name),
                parameters: (field(declaration, 'parametersJsonSchema') ?? declaration.parameters) as Record<string, unknown> | undefined,
              },
            }),
          )
      : [],
  );

  // Thinking is simulated apart (a thought summary, thoughtsTokenCount), so planReply spends no reasoning tokens.
  const chat: SimChatRequest = { model, messages, stream, reasoning_effort: 'none' };
  if (tools.length > 0) chat.tools = tools;
  const toolChoice = toToolChoice(objectAt(objectAt(body, 'toolConfig'), 'functionCallingConfig'));
  if (toolChoice) chat.tool_choice = toolChoice;
  const maxTokens = field(config, 'maxOutputTokens');
  if (typeof maxTokens === 'number') chat.max_tokens = maxTokens;
  const stop = arrayAt(config, 'stopSequences').filter((s): s is string => typeof s === 'string');
  if (stop.length > 0) chat.stop = stop;
  if (field(config, 'responseMimeType') === 'application/json') {
    const schema = field(config, 'responseJsonSchema') ?? field(config, 'responseSchema');
    chat.response_format = isJson(schema) ? { type: 'json_schema', json_schema: { name: 'response', schema } } : { type: 'json_object' };
  }
  return chat;
}

/** A model turn is an assistant message; a user turn's function responses are tool messages, its other parts a user message. */
function toMessages(content: Json): ChatMessage[] {
  const parts = arrayAt(content, 'parts').filter(isJson);
  if (content.role === 'model') {
    const calls = parts.map((part) => objectAt(part, 'functionCall')).filter((call) => call.name !== undefined);
    const toolCalls = calls.map((call, i) => ({
      id: `call_${i}`,
      type: 'function' as const,
      function: { name: String(call.name), arguments: JSON.stringify(call.args ?? {}) },
    }));
    return [{ role: 'assistant', content: texts(parts), ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) }];
  }
  const results = parts.map((part) => objectAt(part, 'functionResponse')).filter((response) => response.name !== undefined);
  const messages: ChatMessage[] = results.map((result) => ({
    role: 'tool',
    tool_call_id: String(result.name),
    content: JSON.stringify(result.response ?? {}),
  }));
  if (results.length < parts.length) messages.push({ role: 'user', content: texts(parts) });
  return messages;
}

/** Gemini's calling modes: NONE, ANY (one allowed name forces that function), AUTO. */
function toToolChoice(config: Json): ToolChoice | undefined {
  const allowed = arrayAt(config, 'allowedFunctionNames');
  switch (config.mode) {
    case 'NONE':
      return 'none';
    case 'ANY':
      return allowed.length === 1 ? { type: 'function', function: { name: String(allowed[0]) } } : 'required';
    default:
      return undefined;
  }
}

function texts(parts: unknown[]): string {
  return parts
    .filter(isJson)
    .filter((part) => typeof part.text === 'string' && part.thought !== true)
    .map((part) => part.text as string)
    .join('');
}
