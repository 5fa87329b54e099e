import { tokenCapacity } from '../accounting/check-usage.js';
import type { Usage } from '../protocol/chat.js';
import type { UpstreamTranscription } from '../protocol/transcription.js';
import { isCount } from '../protocol/usage-counts.js';
import { isRecord } from '../util/is-record.js';

/**
 * The lowest bitrate any format OpenAI takes can carry speech at: 2 kbit/s,
 * Speex's narrowband floor inside Ogg (Opus's is 6, MP3's 8). A file of n
 * bytes cannot hold more than n × 8 / 2,000 seconds of audio.
 */
export const LOWEST_BITS_PER_SECOND = 2_000;

/**
 * Tokens a second of audio can be billed at most, in and out: OpenAI's
 * audio models count 10 input tokens a second, and speech is a few words a
 * second; five times that leaves room for other providers' rates.
 */
export const TOKENS_PER_SECOND = 50;

/** The longest audio a file of this size can hold (at least a second): the bound of both the reservation and the billing. */
export const maxAudioSeconds = (bytes: number): number => Math.max(1, Math.ceil((bytes * 8) / LOWEST_BITS_PER_SECOND));

/** The most tokens a transcription of audio this long can be billed, in and out. */
export const maxAudioTokens = (seconds: number): number => seconds * TOKENS_PER_SECOND;

/** What a transcription is billed for: seconds of audio and tokens, and whether any figure is the gateway's own. */
export interface TranscriptionUsage {
  seconds: number;
  usage: Usage;
  estimated: boolean;
}

const isDuration = (value: unknown, maxSeconds: number): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= maxSeconds;

/**
 * The usage to bill from what the upstream reported, checked against what
 * the file could hold. The duration is `usage.seconds` (OpenAI's `duration`
 * usage) or verbose_json's `duration`; tokens are `usage.input_tokens` and
 * `output_tokens` (its `tokens` usage). A duration that is not finite,
 * negative or longer than the file can hold is replaced by that bound; so is
 * a missing one when no token figure came either. A token figure that is not
 * a count or is more than the audio (input) or the transcript (output) could
 * hold is replaced by its bound. Any replacement marks the usage estimated.
 */
export function checkTranscriptionUsage(
  answer: Pick<UpstreamTranscription, 'duration' | 'usage' | 'text'>,
  maxSeconds: number,
): TranscriptionUsage {
  const usage = isRecord(answer.usage) ? answer.usage : {};
  const tokens = usage.type === 'tokens';
  const reportedSeconds = usage.type === 'duration' ? usage.seconds : answer.duration;
  const maxInput = maxAudioTokens(maxSeconds);
  const maxOutput = Math.min(maxInput, tokenCapacity(answer.text.length));
  const input = tokens ? usage.input_tokens : 0;
  const output = tokens ? usage.output_tokens : 0;
  const inputOk = isCount(input) && input <= maxInput;
  const outputOk = isCount(output) && output <= maxOutput;
  const secondsOk = reportedSeconds === undefined ? tokens : isDuration(reportedSeconds, maxSeconds);
  const prompt = inputOk ? input : maxInput;
  const completion = outputOk ? output : maxOutput;
  return {
    seconds: secondsOk ? ((reportedSeconds as number | undefined) ?? 0) : maxSeconds,
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    estimated: !(inputOk && outputOk && secondsOk),
  };
}

/**
 * The usage as OpenAI states it (tokens for the models billed by token,
 * else the duration), with the billed seconds and the cost added as the
 * reference's STTUsage has them.
 */
export function statedUsage(billed: TranscriptionUsage, cost: number): Record<string, unknown> {
  const { usage, seconds } = billed;
  return usage.total_tokens > 0
    ? {
        type: 'tokens',
        input_tokens: usage.prompt_tokens,
        output_tokens: usage.completion_tokens,
        total_tokens: usage.total_tokens,
        seconds,
        cost,
      }
    : { type: 'duration', seconds, cost };
}
