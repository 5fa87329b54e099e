import type { ChatRequest, FunctionTool, ReasoningEffort } from '../protocol/chat.js';
import { multipleChoice } from './decisions/multiple-choice.js';
import { sampleJson } from './sample-json.js';
import { countPromptTokens, messageText, splitTokens } from './tokens.js';

/** A chat request that passed the simulator's validation. */
export type SimChatRequest = ChatRequest & { model: string };

/** OpenAI's usage object, with every detail field the real API sends. */
export interface SimUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

/** What the simulated model answers, before it is framed as JSON or SSE. */
export type Reply =
  | {
      kind: 'text';
      /** The reply's tokens, grouped as the content chunks of a stream. */
      chunks: string[][];
      finishReason: 'stop' | 'length';
      /** The stop string the text was cut at, when it was. */
      stopSequence?: string;
      usage: SimUsage;
    }
  | {
      kind: 'tool_call';
      name: string;
      arguments: string;
      /** The arguments JSON, cut into the pieces a stream sends. */
      argumentChunks: string[];
      usage: SimUsage;
    };

const REPLY_OPENING = 'This is a simulated reply.';
/** How much of the last user message the reply echoes. */
const ECHO_TOKENS = 50;

/** Hidden reasoning tokens a reasoning model spends, by reasoning_effort (default medium). */
const REASONING_TOKENS: Record<ReasoningEffort, number> = {
  none: 0,
  minimal: 8,
  low: 16,
  medium: 64,
  high: 256,
  xhigh: 512,
  max: 1024,
};

export const REASONING_EFFORTS = Object.keys(REASONING_TOKENS) as ReasoningEffort[];

export const isReasoningModel = (model: string) => model.includes('reason');

/**
 * The deterministic reply to a request: a tool call when one is asked for,
 * otherwise a fixed opening plus an echo of the last user message (or a JSON
 * text under response_format), lengthened to `chunks` tokens when asked, cut at
 * a stop string or at the token limit.
 */
export function planReply(request: SimChatRequest, chunks: number | undefined): Reply {
  const reasoningTokens = isReasoningModel(request.model) ? REASONING_TOKENS[request.reasoning_effort ?? 'medium'] : 0;
  const usageFor = (visibleTokens: number) => usage(countPromptTokens(request.messages, request.tools), visibleTokens, reasoningTokens);

  const tool = chooseTool(request);
  if (tool) {
    const args = JSON.stringify(toolArguments(tool, request));
    const pieces = splitTokens(args);
    return {
      kind: 'tool_call',
      name: tool.function.name,
      arguments: args,
      argumentChunks: groupInto(pieces, chunks).map((group) => group.join('')),
      usage: usageFor(pieces.length),
    };
  }

  const format = request.response_format?.type;
  let tokens = splitTokens(replyText(request));
  if (chunks !== undefined && (format === undefined || format === 'text')) tokens = lengthen(tokens, chunks);

  // Reasoning tokens count against max_completion_tokens, as at OpenAI.
  const limit = request.max_completion_tokens ?? request.max_tokens;
  const visibleLimit = limit == null ? tokens.length : Math.max(0, limit - reasoningTokens);
  const truncated = tokens.length > visibleLimit;
  const stopped = cutAtStop(tokens.slice(0, visibleLimit), request.stop);
  return {
    kind: 'text',
    chunks: groupInto(stopped.tokens, chunks),
    finishReason: stopped.stop !== undefined || !truncated ? 'stop' : 'length',
    ...(stopped.stop !== undefined ? { stopSequence: stopped.stop } : {}),
    usage: usageFor(stopped.tokens.length),
  };
}

export function lastUserText(request: ChatRequest): string {
  const last = request.messages.findLast((message) => message.role === 'user');
  return last ? messageText(last.content).trim() : '';
}

/** The first URL in a text, as a model would pick it out. */
const firstUrl = (text: string) => /https?:\/\/[^\s"'<>)\]]+/.exec(text)?.[0];

/** The first fenced code block of a text (```python … ```), as a model would run what the user wrote. */
const firstCodeBlock = (text: string) => /```[A-Za-z]*\n([\s\S]*?)```/.exec(text)?.[1];

function replyText(request: ChatRequest): string {
  const last = request.messages.at(-1);
  // Asked for one letter of a multiple-choice question, the model answers its likeliest letter alone.
  const letters = last?.role === 'user' ? multipleChoice(lastUserText(request)) : undefined;
  if (letters) return letters[0]!.letter;
  // After a tool result the model reports what the tool said, so tests see that the result reached it.
  const afterTool = last?.role === 'tool';
  const source = afterTool ? messageText(last.content).trim() : lastUserText(request);
  const echo = splitTokens(source).slice(0, ECHO_TOKENS).join('');
  const text = echo ? `${REPLY_OPENING} ${afterTool ? 'The tool said' : 'You said'}: ${echo}` : REPLY_OPENING;
  const format = request.response_format;
  if (format?.type === 'json_object') return JSON.stringify({ reply: text });
  if (format?.type === 'json_schema') return JSON.stringify(sampleJson(format.json_schema.schema ?? { type: 'object' }));
  return text;
}

const takes = (tool: FunctionTool, property: string) => {
  const properties = tool.function.parameters?.properties;
  return typeof properties === 'object' && properties !== null && property in properties;
};

/**
 * The tool to call, if any: the function tool_choice forces; with "required",
 * or when the conversation ends with a user message mentioning the weather, the
 * weather-ish tool (else the first); when it ends with a user message holding
 * a URL, a tool that takes a `url`; when it asks to search, a tool that takes
 * a `query`. Ending on a user message keeps agent loops finite: after the
 * tool result the model answers in text. When the last user message names
 * tools (by function name), the model works through them like an agent:
 * one call per turn, in the order named, each once after that message, then
 * it answers in text.
 */
function chooseTool(request: ChatRequest): FunctionTool | undefined {
  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  if (tools.length === 0 || choice === 'none') return undefined;
  if (typeof choice === 'object') return tools.find((tool) => tool.function.name === choice.function.name);
  const named = namedTools(request, tools);
  if (named.length > 0) return nextNamedTool(request, named);
  const userLast = request.messages.at(-1)?.role === 'user';
  const text = lastUserText(request);
  if (userLast && firstUrl(text)) {
    const fetcher = tools.find((tool) => takes(tool, 'url'));
    if (fetcher) return fetcher;
  }
  if (userLast && /\bsearch\b/i.test(text)) {
    const searcher = tools.find((tool) => takes(tool, 'query'));
    if (searcher) return searcher;
  }
  const asksWeather = userLast && /\bweather\b/i.test(text);
  if (choice !== 'required' && !asksWeather) return undefined;
  return tools.find((tool) => /weather/i.test(tool.function.name)) ?? tools[0];
}

/** The tools the last user message names, in the order it names them. */
function namedTools(request: ChatRequest, tools: readonly FunctionTool[]): FunctionTool[] {
  const text = lastUserText(request);
  const at = (tool: FunctionTool) => new RegExp(`\\b${tool.function.name.replace(/[^A-Za-z0-9_]/g, '\\$&')}\\b`).exec(text)?.index ?? -1;
  return tools
    .map((tool) => ({ tool, index: at(tool) }))
    .filter(({ index }) => index >= 0)
    .sort((a, b) => a.index - b.index)
    .map(({ tool }) => tool);
}

/** The first named tool not yet called since the last user message; undefined once all were (the model then answers). */
function nextNamedTool(request: ChatRequest, named: readonly FunctionTool[]): FunctionTool | undefined {
  const since = request.messages.slice(request.messages.findLastIndex((message) => message.role === 'user') + 1);
  const called = new Set(
    since.flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.function.name) : [])),
  );
  return named.find((tool) => !called.has(tool.function.name));
}

/** The text of the conversation's last tool result, if it ends on one. */
function lastToolText(request: ChatRequest): string | undefined {
  const last = request.messages.at(-1);
  return last?.role === 'tool' ? messageText(last.content).trim() : undefined;
}

/**
 * Arguments that fit the tool's schema, with the user's URL in a `url`, the
 * user's words in a `query`, the user's fenced code block in a `code`, and
 * what the last tool said in a `report` (so an agent's report carries what it found).
 */
function toolArguments(tool: FunctionTool, request: ChatRequest): unknown {
  const args = sampleJson(tool.function.parameters ?? { type: 'object' });
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const text = lastUserText(request);
  const url = firstUrl(text);
  const found = lastToolText(request);
  const code = firstCodeBlock(text);
  return {
    ...args,
    ...(takes(tool, 'url') && url ? { url } : {}),
    ...(takes(tool, 'query') && text ? { query: text } : {}),
    ...(takes(tool, 'code') && code !== undefined ? { code } : {}),
    ...(takes(tool, 'report') && found ? { report: `Found: ${splitTokens(found).slice(0, ECHO_TOKENS).join('')}` } : {}),
  };
}

/** Repeats the reply's own tokens until there are `count`. */
function lengthen(tokens: string[], count: number): string[] {
  const source = tokens.length > 0 ? tokens : [REPLY_OPENING];
  return Array.from({ length: Math.max(count, tokens.length) }, (_, i) =>
    i < tokens.length ? (tokens[i] as string) : ` ${(source[i % source.length] as string).trimStart()}`,
  );
}

/** The tokens before the first stop string (the stop string itself is not sent, as at OpenAI). */
function cutAtStop(tokens: string[], stop: ChatRequest['stop']): { tokens: string[]; stop?: string } {
  const stops = (typeof stop === 'string' ? [stop] : (stop ?? [])).filter((s) => s !== '');
  const text = tokens.join('');
  const at = Math.min(...stops.map((s) => text.indexOf(s)).filter((i) => i >= 0));
  if (!Number.isFinite(at)) return { tokens };

  const kept: string[] = [];
  let length = 0;
  for (const token of tokens) {
    if (length + token.length > at) {
      if (at > length) kept.push(token.slice(0, at - length));
      break;
    }
    kept.push(token);
    length += token.length;
  }
  return { tokens: kept, stop: stops.find((s) => text.indexOf(s) === at) };
}

/** `count` groups of consecutive items, as even as possible; one item per group when count is absent or too large. */
function groupInto<T>(items: T[], count: number | undefined): T[][] {
  if (count === undefined || count >= items.length) return items.map((item) => [item]);
  return Array.from({ length: count }, (_, k) =>
    items.slice(Math.floor((k * items.length) / count), Math.floor(((k + 1) * items.length) / count)),
  );
}

function usage(promptTokens: number, visibleTokens: number, reasoningTokens: number): SimUsage {
  const completionTokens = visibleTokens + reasoningTokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}
