import { tokenCapacity } from '../accounting/check-usage.js';
import type { TokenCounter } from '../plugins/shared/token-counter.js';
import type { Usage } from '../protocol/chat.js';
import type { SpeechRequest } from '../protocol/speech.js';
import { isCount } from '../protocol/usage-counts.js';
import { isRecord } from '../util/is-record.js';

/**
 * The longest a character takes to say at speed 1: a quarter of a second
 * (4 characters a second, under half the pace of the slowest voices).
 */
const SECONDS_PER_CHARACTER = 0.25;
/** Audio tokens a second of speech can be billed at most: OpenAI's speech models count about 20; a margin for other providers. */
const AUDIO_TOKENS_PER_SECOND = 50;

/** The characters a request is billed for: its input's, counted as code points (what the providers count). */
export const characters = (request: Pick<SpeechRequest, 'input'>): number => [...request.input].length;

/** The most tokens a speech can be billed: the text's capacity in, the longest its audio can last out. */
export function maxSpeechTokens(request: Pick<SpeechRequest, 'input' | 'speed'>): { input: number; output: number } {
  const seconds = Math.max(1, Math.ceil((characters(request) * SECONDS_PER_CHARACTER) / (request.speed ?? 1)));
  return { input: tokenCapacity(request.input.length), output: seconds * AUDIO_TOKENS_PER_SECOND };
}

/**
 * The tokens to bill from speech.audio.done's `usage`, checked (pure):
 * `input_tokens` and `output_tokens` must be counts within what the text and
 * the longest audio it makes could hold; a figure that is not is replaced by
 * that bound, and the usage marked estimated.
 */
export function checkSpeechUsage(reported: unknown, request: Pick<SpeechRequest, 'input' | 'speed'>): { usage: Usage; estimated: boolean } {
  const usage = isRecord(reported) ? reported : {};
  const max = maxSpeechTokens(request);
  const inputOk = isCount(usage.input_tokens) && usage.input_tokens <= max.input;
  const outputOk = isCount(usage.output_tokens) && usage.output_tokens <= max.output;
  const prompt = inputOk ? (usage.input_tokens as number) : max.input;
  const completion = outputOk ? (usage.output_tokens as number) : max.output;
  return {
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    estimated: !(inputOk && outputOk),
  };
}

/**
 * The tokens to bill a speech whose upstream reported none (pure): a stream
 * that broke, or a server that answered raw audio. The text's tokens as
 * `counter` counts them, never more than the reservation held for them
 * (maxSpeechTokens); the audio's tokens cannot be known (its bytes say how
 * long it lasts only in some formats, and not what the provider counts), so
 * none are billed.
 */
export function countedSpeechUsage(request: Pick<SpeechRequest, 'input' | 'speed'>, counter: Pick<TokenCounter, 'count'>): Usage {
  const prompt = Math.min(counter.count(request.input), maxSpeechTokens(request).input);
  return { prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt };
}
