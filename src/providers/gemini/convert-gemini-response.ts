import type { ChatCompletion, ToolCall, UrlCitation } from '../../protocol/chat.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import type { GeminiCandidate, GeminiGroundingMetadata, GeminiResponse } from './gemini-api-types.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

type Choice = ChatCompletion['choices'][number];

/**
 * The canonical response for a Gemini generateContent one. `created` is
 * given by the caller, as Gemini's answers carry no time. A prompt Gemini
 * blocked comes back without candidates: it becomes one empty choice that
 * finished with content_filter, the block reason as the native reason.
 */
export function convertGeminiResponse(response: GeminiResponse, created: number): ChatCompletion {
  const blockReason = response.promptFeedback?.blockReason;
  const candidates = response.candidates ?? [];
  const completion: ChatCompletion = {
    id: response.responseId ?? '',
    object: 'chat.completion',
    created,
    model: response.modelVersion ?? '',
    system_fingerprint: null,
    choices:
      candidates.length === 0 && blockReason !== undefined
        ? [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter', native_finish_reason: blockReason }]
        : candidates.map(convertCandidate),
  };
  if (response.usageMetadata) completion.usage = convertGeminiUsage(response.usageMetadata);
  return completion;
}

/**
 * Text parts make the content and thought parts the reasoning; function
 * calls get ids `call_<n>` by their position, as Gemini's have none.
 * Signatures are dropped: the canonical message has no place for them.
 */
function convertCandidate(candidate: GeminiCandidate, position: number): Choice {
  let content: string | undefined;
  let reasoning: string | undefined;
  const toolCalls: ToolCall[] = [];
  for (const part of candidate.content?.parts ?? []) {
    if (part.functionCall) {
      toolCalls.push({
        id: `call_${toolCalls.length}`,
        type: 'function',
        function: { name: part.functionCall.name ?? '', arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    } else if (part.text !== undefined) {
      if (part.thought) reasoning = (reasoning ?? '') + part.text;
      else content = (content ?? '') + part.text;
    }
  }

  const message: Choice['message'] = { role: 'assistant', content: content ?? null };
  if (reasoning !== undefined) message.reasoning = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const annotations = groundingCitations(candidate.groundingMetadata, content ?? '');
  if (annotations.length > 0) message.annotations = annotations;
  const choice: Choice = {
    index: candidate.index ?? position,
    message,
    finish_reason: mapGeminiFinishReason(candidate.finishReason, toolCalls.length > 0),
  };
  if (candidate.finishReason !== undefined) choice.native_finish_reason = candidate.finishReason;
  return choice;
}

/** A UTF-8 byte offset into the text, as a code point position (OpenAI's annotations count code points). */
const codePointAt = (text: string, byteOffset: number) => [...Buffer.from(text).subarray(0, byteOffset).toString()].length;

/**
 * Google Search grounding as url_citation annotations: one per supported
 * span and source page, over that span; a page found but supporting no span
 * is listed at 0..0.
 */
export function groundingCitations(metadata: GeminiGroundingMetadata | undefined, content: string): UrlCitation[] {
  const chunks = metadata?.groundingChunks ?? [];
  const cited = new Set<number>();
  const citation = (index: number, start: number, end: number, text?: string): UrlCitation[] => {
    const web = chunks[index]?.web;
    if (!web?.uri) return [];
    return [
      {
        type: 'url_citation',
        url_citation: { url: web.uri, title: web.title ?? web.uri, ...(text ? { content: text } : {}), start_index: start, end_index: end },
      },
    ];
  };
  const supported = (metadata?.groundingSupports ?? []).flatMap((support) => {
    const start = codePointAt(content, support.segment?.startIndex ?? 0);
    const end = codePointAt(content, support.segment?.endIndex ?? 0);
    return (support.groundingChunkIndices ?? []).flatMap((index) => {
      cited.add(index);
      return citation(index, start, end, support.segment?.text);
    });
  });
  return [...supported, ...chunks.flatMap((_, index) => (cited.has(index) ? [] : citation(index, 0, 0)))];
}
