import type { ChatCompletion } from '../protocol/chat.js';
import { optionLabel } from '../protocol/decision-options.js';
import type { OptionReading } from '../protocol/decisions.js';
import { UpstreamError } from '../protocol/upstream.js';
import { isRecord } from '../util/is-record.js';

/** The option index a token names: its letter, whatever spacing or case the tokenizer put around it. */
function letterIndex(token: unknown, count: number): number | undefined {
  if (typeof token !== 'string') return undefined;
  const letter = token.trim().toUpperCase();
  for (let i = 0; i < count; i++) if (optionLabel(i) === letter) return i;
  return undefined;
}

/** The first token's alternatives, in OpenAI's shape: `logprobs.content[0].top_logprobs[{token, logprob}]`. */
function firstTopLogprobs(logprobs: unknown): unknown[] | undefined {
  if (!isRecord(logprobs) || !Array.isArray(logprobs.content)) return undefined;
  const first: unknown = logprobs.content[0];
  return isRecord(first) && Array.isArray(first.top_logprobs) ? first.top_logprobs : undefined;
}

/**
 * What a chat model's one-token answer says of `count` lettered options:
 * each letter's probability from the first token's top_logprobs (tokens
 * " B" and "b" both name B, so their probabilities add up) when any letter
 * is among them; otherwise the letter it answered, probabilities unknown.
 * An answer that is no option's letter is malformed: the plan moves on.
 */
export function readOptionReading(completion: ChatCompletion, count: number): OptionReading {
  const choice = completion.choices[0];
  const probabilities = new Array<number>(count).fill(0);
  let seen = false;
  for (const alternative of firstTopLogprobs(choice?.logprobs) ?? []) {
    if (!isRecord(alternative) || typeof alternative.logprob !== 'number' || !Number.isFinite(alternative.logprob)) continue;
    const index = letterIndex(alternative.token, count);
    if (index === undefined) continue;
    probabilities[index]! += Math.exp(Math.min(0, alternative.logprob));
    seen = true;
  }
  if (seen) return { kind: 'probabilities', probabilities };
  const picked = letterIndex(choice?.message.content, count);
  if (picked === undefined)
    throw new UpstreamError(
      'malformed',
      `the model answered ${JSON.stringify(choice?.message.content ?? null)}, not one of the option letters`,
    );
  return { kind: 'picked', index: picked };
}
