import { randomBytes } from 'node:crypto';
import type { Reply } from '../reply.js';
import type { NativeSearch } from '../search/native-search.js';
import { splitTokens } from '../tokens.js';

/** What every event of one simulated answer shares, and the thinking it did. */
export interface GeminiAnswer {
  reply: Reply;
  /** modelVersion: the model asked for, without knobs. */
  model: string;
  responseId: string;
  /** The thought summary, when the request asked for thinking. */
  thought?: { text: string; tokens: number; shown: boolean };
  /** What Google Search found, when the answer is grounded. */
  search?: NativeSearch;
}

/** Google's responseId: 17 random bytes, base64url, like the recorded ones. */
export const newResponseId = () => randomBytes(17).toString('base64url');

/** A short deterministic thought summary about the last thing the user said. */
export function thoughtAbout(userText: string, shown: boolean): NonNullable<GeminiAnswer['thought']> {
  const echo = splitTokens(userText).slice(0, 20).join('').trim();
  const text = `**Considering the request**\n\nThe user wrote: "${echo}". A short, direct answer will do.`;
  return { text, tokens: splitTokens(text).length, shown };
}

const FINISH_REASONS = { stop: 'STOP', length: 'MAX_TOKENS' } as const;

/** The non-streaming GenerateContentResponse, laid out as Gemini sends it. */
export function generateContentResponse(answer: GeminiAnswer): object {
  const { reply, search } = answer;
  const parts = search
    ? [{ text: `${search.opening}${search.sentence}` }]
    : reply.kind === 'text'
      ? [{ text: reply.chunks.flat().join('') }]
      : [{ functionCall: { name: reply.name, args: JSON.parse(reply.arguments) as unknown } }];
  return {
    candidates: [
      {
        content: { parts: [...thoughtParts(answer), ...parts], role: 'model' },
        finishReason: reply.kind === 'text' ? FINISH_REASONS[reply.finishReason] : 'STOP',
        index: 0,
        ...(search ? { groundingMetadata: groundingMetadata(search) } : {}),
      },
    ],
    usageMetadata: usageMetadata(answer, visibleTokens(reply)),
    modelVersion: answer.model,
    responseId: answer.responseId,
  };
}

/**
 * The events of a streamGenerateContent answer, as JSON texts in order: the
 * thought summary (when shown), then a text event per chunk with the finish
 * reason on the last; or a whole function call, then an empty text with the
 * finish reason, as Gemini 3 sends it. Every event repeats the running
 * usageMetadata, as Gemini's do.
 */
export function generateContentEvents(answer: GeminiAnswer): string[] {
  const { reply } = answer;
  let tokensSoFar = 0;
  const event = (parts: object[], finishReason?: string) =>
    JSON.stringify({
      candidates: [{ content: { parts, role: 'model' }, ...(finishReason ? { finishReason } : {}), index: 0 }],
      usageMetadata: usageMetadata(answer, tokensSoFar),
      modelVersion: answer.model,
      responseId: answer.responseId,
    });

  const events = thoughtParts(answer).map((part) => event([part]));
  if (reply.kind === 'text') {
    const chunks = reply.chunks.length > 0 ? reply.chunks : [[]];
    for (const [i, tokens] of chunks.entries()) {
      tokensSoFar += tokens.length;
      events.push(event([{ text: tokens.join('') }], i === chunks.length - 1 ? FINISH_REASONS[reply.finishReason] : undefined));
    }
  } else {
    tokensSoFar = visibleTokens(reply);
    events.push(event([{ functionCall: { name: reply.name, args: JSON.parse(reply.arguments) as unknown } }]));
    events.push(event([{ text: '' }], 'STOP'));
  }
  return events;
}

function thoughtParts(answer: GeminiAnswer): object[] {
  return answer.thought?.shown ? [{ text: answer.thought.text, thought: true }] : [];
}

/** The reply's own tokens: planReply spends no reasoning tokens here, thinking is counted apart. */
const visibleTokens = (reply: Reply) => reply.usage.completion_tokens;

function usageMetadata(answer: GeminiAnswer, candidatesTokens: number): object {
  const promptTokens = answer.reply.usage.prompt_tokens;
  const thoughtTokens = answer.thought?.tokens ?? 0;
  return {
    promptTokenCount: promptTokens,
    candidatesTokenCount: candidatesTokens,
    totalTokenCount: promptTokens + candidatesTokens + thoughtTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
    ...(answer.thought ? { thoughtsTokenCount: thoughtTokens } : {}),
  };
}

/**
 * Google Search grounding as Gemini reports it: the queries, the pages as
 * grounding chunks, and the quoted sentence as a supported segment (UTF-8
 * byte offsets into the answer) pointing at the first page.
 */
function groundingMetadata(search: NativeSearch): object {
  const start = Buffer.byteLength(search.opening);
  return {
    webSearchQueries: [search.query],
    groundingChunks: search.pages.map((page) => ({ web: { uri: page.url, title: new URL(page.url).hostname } })),
    groundingSupports: [
      {
        segment: { startIndex: start, endIndex: start + Buffer.byteLength(search.sentence), text: search.sentence },
        groundingChunkIndices: [0],
      },
    ],
  };
}
