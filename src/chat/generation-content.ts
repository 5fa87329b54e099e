import type { ChatCompletionChunk, ChatMessage } from '../protocol/chat.js';
import type { GenerationContentRecord } from '../store/schema.js';

/**
 * How much of a generation's content is kept, in characters: the request's
 * messages as JSON, and the completion and the reasoning each. A longer
 * string inside the messages is cut first, then the oldest messages go.
 */
export const CONTENT_LIMITS = { input: 262_144, text: 65_536, string: 16_384 } as const;

/** What the model answered, as text (the first choice's). */
export interface GeneratedText {
  completion: string | null;
  reasoning: string | null;
}

const MARK = '…';

/** A text cut to `limit` characters, and whether it was. */
function cut(text: string | null, limit: number): { text: string | null; truncated: boolean } {
  if (text === null || text.length <= limit) return { text, truncated: false };
  return { text: text.slice(0, limit - MARK.length) + MARK, truncated: true };
}

/** A value as JSON, each string in it no longer than `limit`. */
const withStringsCut = (value: unknown, limit: number): string =>
  JSON.stringify(value, (_, inner: unknown) =>
    typeof inner === 'string' && inner.length > limit ? inner.slice(0, limit - MARK.length) + MARK : inner,
  );

/**
 * The newest messages whose JSON (strings cut to CONTENT_LIMITS.string) fits
 * CONTENT_LIMITS.input, or undefined when even the last alone does not. Each
 * message is serialized once and the list's length summed from the end, so
 * the time is linear in the messages however many must go.
 */
function newestThatFit(messages: readonly ChatMessage[]): string | undefined {
  const kept: string[] = [];
  let length = 1; // '[' and ']' less the comma the first one does not need
  for (let i = messages.length - 1; i >= 0; i--) {
    const json = withStringsCut(messages[i], CONTENT_LIMITS.string);
    if (length + json.length + 1 > CONTENT_LIMITS.input) break;
    kept.push(json);
    length += json.length + 1;
  }
  return kept.length > 0 ? `[${kept.reverse().join(',')}]` : undefined;
}

/**
 * The request's messages as JSON within CONTENT_LIMITS.input: whole when they
 * fit; else with long strings cut, then without the oldest messages, then
 * with the last message's strings cut shorter; an empty list if even that
 * does not fit.
 */
export function boundedMessages(messages: readonly ChatMessage[]): { json: string; truncated: boolean } {
  const whole = JSON.stringify(messages);
  if (whole.length <= CONTENT_LIMITS.input) return { json: whole, truncated: false };
  const newest = newestThatFit(messages);
  if (newest !== undefined) return { json: newest, truncated: true };
  for (let limit = CONTENT_LIMITS.string / 2; limit >= 64; limit /= 2) {
    const json = `[${withStringsCut(messages.at(-1), limit)}]`;
    if (json.length <= CONTENT_LIMITS.input) return { json, truncated: true };
  }
  return { json: '[]', truncated: true };
}

/** The row of generation_contents of a run that stores its content: the client's messages, and what was answered (nothing for a failure before any answer). */
export function generationContent(
  run: { id: string; key: { organization_id: string }; startedAt: number },
  messages: readonly ChatMessage[],
  output: GeneratedText | undefined,
): GenerationContentRecord {
  const input = boundedMessages(messages);
  const completion = cut(output?.completion ?? null, CONTENT_LIMITS.text);
  const reasoning = cut(output?.reasoning ?? null, CONTENT_LIMITS.text);
  return {
    generation_id: run.id,
    organization_id: run.key.organization_id,
    input: input.json,
    completion: completion.text,
    reasoning: reasoning.text,
    truncated: input.truncated || completion.truncated || reasoning.truncated ? 1 : 0,
    created_at: new Date(run.startedAt).toISOString(),
  };
}

/** A stream's first choice as it goes by, kept up to CONTENT_LIMITS.text (and a character more, so that the cut shows). */
export class StreamedText {
  private readonly completion: string[] = [];
  private readonly reasoning: string[] = [];
  private completionChars = 0;
  private reasoningChars = 0;

  see(chunk: ChatCompletionChunk): void {
    for (const { index, delta } of chunk.choices) {
      if (index !== 0) continue;
      if (delta.content && this.completionChars <= CONTENT_LIMITS.text) {
        this.completion.push(delta.content);
        this.completionChars += delta.content.length;
      }
      if (delta.reasoning && this.reasoningChars <= CONTENT_LIMITS.text) {
        this.reasoning.push(delta.reasoning);
        this.reasoningChars += delta.reasoning.length;
      }
    }
  }

  text(): GeneratedText {
    return {
      completion: this.completion.length > 0 ? this.completion.join('') : null,
      reasoning: this.reasoning.length > 0 ? this.reasoning.join('') : null,
    };
  }
}
