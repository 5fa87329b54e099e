import type { Usage } from '../protocol/chat.js';
import { isCount } from '../protocol/usage-counts.js';
import { isRecord } from '../util/is-record.js';

/** The count, or 0 for anything billing cannot take. */
export const countOrZero = (value: unknown): number => (isCount(value) ? value : 0);

/** Tokens of framing a message or a tool call may add beyond its text (role markers, call wrappers). */
const FRAMING_TOKENS = 16;

/**
 * The most tokens a text of `chars` UTF-16 code units, in `pieces` messages
 * or tool calls, could hold: every token of a byte-level tokenizer (OpenAI's,
 * Llama's, Gemini's and Claude's byte fallbacks) holds at least one UTF-8
 * byte, and a code unit is at most three bytes.
 */
export const tokenCapacity = (chars: number, pieces = 1): number => 3 * chars + FRAMING_TOKENS * pieces;

/** The context window assumed where the catalog gives none: the largest any model has. */
export const UNKNOWN_CONTEXT_TOKENS = 10_000_000;

/** What the upstream's figures must fit. */
export interface UsageBounds {
  /** The endpoint's context window. */
  maxPromptTokens: number;
  /** The endpoint's longest completion (its max_completion_tokens, else its context window). */
  maxCompletionTokens: number;
  /** tokenCapacity of the answer's text as the gateway received it (content, reasoning, refusal, tool calls). */
  answerCapacity: number;
  /**
   * Whether the model may spend completion tokens that are not in the text
   * (hidden reasoning) without saying how many: then only maxCompletionTokens
   * bounds the completion unless the upstream reports its reasoning tokens.
   */
  mayHideTokens: boolean;
}

/** The gateway's own counts of the prompt sent and the answer received (tokens). */
export interface LocalCounts {
  prompt: number;
  completion: number;
}

export interface CheckedUsage {
  usage: Usage;
  /** Whether any figure is the gateway's own: the upstream gave none, or one billing could not take. */
  estimated: boolean;
}

/**
 * The usage to bill from what an upstream reported (anything: a parser's
 * output is only as sane as the upstream). Prompt and completion counts must
 * be whole, ≥ 0 and possible: a prompt of at least one token (a request has a
 * message) within the endpoint's context window, a completion within its
 * longest, and a completion no larger than its text could hold
 * once its reported reasoning, audio and image tokens are set aside. Either
 * failing is replaced by the gateway's local count. Details must fit their
 * totals (cached plus cache writes within the prompt, reasoning within the
 * completion) or are dropped, so that nothing is priced twice or below zero.
 * `estimated` is set when anything was replaced or dropped.
 *
 * Without `local`, answers undefined when a local count is needed, so that
 * the caller counts (a tokenizer pass) only then; with it, always answers.
 */
export function checkUsage(reported: unknown, bounds: UsageBounds): CheckedUsage | undefined;
export function checkUsage(reported: unknown, bounds: UsageBounds, local: LocalCounts): CheckedUsage;
export function checkUsage(reported: unknown, bounds: UsageBounds, local?: LocalCounts): CheckedUsage | undefined {
  const figures = isRecord(reported) ? reported : {};
  const promptDetails = isRecord(figures.prompt_tokens_details) ? figures.prompt_tokens_details : undefined;
  const completionDetails = isRecord(figures.completion_tokens_details) ? figures.completion_tokens_details : undefined;

  const reportedPrompt = figures.prompt_tokens;
  const promptOk = isCount(reportedPrompt) && reportedPrompt >= 1 && reportedPrompt <= bounds.maxPromptTokens;
  const reportedCompletion = figures.completion_tokens;
  const completionOk =
    isCount(reportedCompletion) &&
    reportedCompletion <= bounds.maxCompletionTokens &&
    fitsItsText(reportedCompletion, completionDetails, bounds);
  if (!(promptOk && completionOk) && !local) return undefined;

  let estimated = !(promptOk && completionOk);
  const prompt = promptOk ? reportedPrompt : local!.prompt;
  const completion = completionOk ? reportedCompletion : local!.completion;
  // A detail that does not fit its total is dropped.
  const detail = (details: Record<string, unknown> | undefined, field: string, most: number): number | undefined => {
    const value = details?.[field];
    if (value == null) return undefined;
    if (isCount(value) && value <= most) return value;
    estimated = true;
    return undefined;
  };
  // Cached reads and cache writes are each priced apart from the rest of the prompt: together within it.
  const cached = detail(promptDetails, 'cached_tokens', prompt);
  const checkedPromptDetails = present({
    cached_tokens: cached,
    cache_write_tokens: detail(promptDetails, 'cache_write_tokens', prompt - (cached ?? 0)),
    audio_tokens: detail(promptDetails, 'audio_tokens', prompt),
  });
  const checkedCompletionDetails = present({
    reasoning_tokens: detail(completionDetails, 'reasoning_tokens', completion),
    audio_tokens: detail(completionDetails, 'audio_tokens', completion),
    image_tokens: detail(completionDetails, 'image_tokens', completion),
  });

  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  if (!estimated && figures.total_tokens != null) {
    // A total the upstream gave is shown as given when it can be one (Gemini's counts tool-use prompts apart).
    if (isCount(figures.total_tokens) && figures.total_tokens <= bounds.maxPromptTokens + bounds.maxCompletionTokens)
      usage.total_tokens = figures.total_tokens;
    else estimated = true;
  }
  if (checkedPromptDetails) usage.prompt_tokens_details = checkedPromptDetails;
  if (checkedCompletionDetails) usage.completion_tokens_details = checkedCompletionDetails;
  const tools = figures.server_tool_use_details;
  if (isRecord(tools)) {
    const counts = [tools.tool_calls_requested, tools.tool_calls_executed, tools.web_search_requests];
    if (!counts.every(isCount)) estimated = true;
    const [requested, executed, searches] = counts.map(countOrZero) as [number, number, number];
    usage.server_tool_use_details = { tool_calls_requested: requested, tool_calls_executed: executed, web_search_requests: searches };
  }
  return { usage, estimated };
}

/** The entries that hold a count, or undefined when none does. */
function present<K extends string>(entries: Record<K, number | undefined>): Partial<Record<K, number>> | undefined {
  const kept = Object.entries(entries).filter((entry): entry is [string, number] => entry[1] !== undefined);
  return kept.length > 0 ? (Object.fromEntries(kept) as Partial<Record<K, number>>) : undefined;
}

/**
 * Whether a completion count is no more than its text could hold, once the
 * tokens reported as not in the text (reasoning, audio, images) are set
 * aside. A model that may hide reasoning without counting it is bounded by
 * its longest completion alone.
 */
function fitsItsText(completion: number, details: Record<string, unknown> | undefined, bounds: UsageBounds): boolean {
  const unseen = (field: string) =>
    isCount(details?.[field]) && (details![field] as number) <= completion ? (details![field] as number) : 0;
  if (bounds.mayHideTokens && !isCount(details?.reasoning_tokens)) return true;
  return completion - unseen('reasoning_tokens') - unseen('audio_tokens') - unseen('image_tokens') <= bounds.answerCapacity;
}

/** What a video job asked for: its duration, else what the model makes by default, and the longest it makes. */
export interface VideoAsked {
  seconds: number | undefined;
  defaultSeconds: number;
  longestSeconds: number;
}

/**
 * The seconds of video to bill from what the upstream reported: a finite
 * number > 0 no longer than was asked (or than the model makes, when no
 * duration was asked); otherwise, or when it said nothing (Veo never does),
 * the duration asked, else the model's default, and `estimated`.
 */
export function checkVideoSeconds(reported: unknown, asked: VideoAsked): { seconds: number; estimated: boolean } {
  const most = asked.seconds ?? Math.max(asked.longestSeconds, asked.defaultSeconds);
  if (typeof reported === 'number' && Number.isFinite(reported) && reported > 0 && reported <= most)
    return { seconds: reported, estimated: false };
  return { seconds: asked.seconds ?? asked.defaultSeconds, estimated: true };
}
