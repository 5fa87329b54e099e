import type { ChatCompletionChunk, ChunkToolCallDelta } from '../../protocol/chat.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import type { GeminiCandidate, GeminiFunctionCall, GeminiResponse, GeminiUsageMetadata } from './gemini-api-types.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { mergeGeminiPartialArgs } from './merge-gemini-partial-args.js';

type ChunkChoice = ChatCompletionChunk['choices'][number];

/** What one candidate's stream has said so far. */
interface CandidateState {
  /** The role went out with its first delta. */
  started: boolean;
  /** Calls seen so far: the next call's index and `call_<n>` id. */
  calls: number;
  /** A call whose arguments Vertex AI is still streaming. */
  open?: { index: number; args: Record<string, unknown> };
}

/**
 * Turns the events of a streamGenerateContent?alt=sse answer into canonical
 * chunks, one event at a time. Gemini's stream has no end marker and repeats
 * the running usageMetadata on every event, so the usage goes out once, in a
 * final `choices: []` chunk after the body ended (usageChunk). Each call gets
 * the id `call_<n>` from its position, in its first delta. A call usually
 * arrives whole; Vertex AI may instead stream it as a named part with
 * `willContinue`, then `partialArgs` pieces, then an empty part closing it:
 * its arguments then go out as one delta when it closes. No chunk carries a
 * system_fingerprint (Gemini has none).
 */
export class GeminiStreamConverter {
  private id = '';
  private model = '';
  private usage: GeminiUsageMetadata | undefined;
  private readonly candidates = new Map<number, CandidateState>();
  private ended = false;

  /** `created` stands for the whole stream, as Gemini's events carry no time. */
  constructor(private readonly created: number) {}

  /** Whether a finish reason, or a prompt block, has arrived: a body that ends before it was cut off. */
  get finished(): boolean {
    return this.ended;
  }

  /** The canonical chunks for one event: none when it carries nothing new (usage alone, or a call still streaming). */
  convert(event: GeminiResponse): ChatCompletionChunk[] {
    this.id ||= event.responseId ?? '';
    this.model ||= event.modelVersion ?? '';
    if (event.usageMetadata) this.usage = event.usageMetadata;

    const candidates = event.candidates ?? [];
    const blockReason = event.promptFeedback?.blockReason;
    if (candidates.length === 0 && blockReason !== undefined) {
      this.ended = true;
      const blocked: ChunkChoice = {
        index: 0,
        delta: { role: 'assistant', content: '' },
        finish_reason: 'content_filter',
        native_finish_reason: blockReason,
      };
      return [this.chunk([blocked])];
    }
    const choices = candidates.flatMap((candidate, position) => this.convertCandidate(candidate, candidate.index ?? position));
    return choices.length > 0 ? [this.chunk(choices)] : [];
  }

  /** The usage chunk, from the last usageMetadata of the stream; for after the body ended. */
  usageChunk(): ChatCompletionChunk | undefined {
    return this.usage ? { ...this.chunk([]), usage: convertGeminiUsage(this.usage) } : undefined;
  }

  private chunk(choices: ChunkChoice[]): ChatCompletionChunk {
    return { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices };
  }

  private convertCandidate(candidate: GeminiCandidate, index: number): ChunkChoice[] {
    let state = this.candidates.get(index);
    if (!state) {
      state = { started: false, calls: 0 };
      this.candidates.set(index, state);
    }
    const delta: ChunkChoice['delta'] = {};
    const toolCalls: ChunkToolCallDelta[] = [];
    for (const part of candidate.content?.parts ?? []) {
      if (part.functionCall) toolCalls.push(...callDeltas(state, part.functionCall));
      // Empty texts (Gemini's last event often has one, to carry a signature) add nothing.
      else if (part.text && part.thought) delta.reasoning = (delta.reasoning ?? '') + part.text;
      else if (part.text) delta.content = (delta.content ?? '') + part.text;
    }
    const { finishReason } = candidate;
    if (finishReason !== undefined) {
      toolCalls.push(...closeCall(state));
      this.ended = true;
    }
    if (toolCalls.length > 0) delta.tool_calls = toolCalls;
    if (Object.keys(delta).length === 0 && finishReason === undefined) return [];

    const choice: ChunkChoice = {
      index,
      delta: state.started ? delta : { role: 'assistant', ...delta },
      finish_reason: mapGeminiFinishReason(finishReason, state.calls > 0),
    };
    if (finishReason !== undefined) choice.native_finish_reason = finishReason;
    state.started = true;
    return [choice];
  }
}

/** The deltas for one functionCall part: a whole call, the start of a streamed one, or a piece of it. */
function callDeltas(state: CandidateState, call: GeminiFunctionCall): ChunkToolCallDelta[] {
  if (call.name === undefined) {
    if (!state.open) return []; // a piece of no call we know of
    state.open.args = mergeGeminiPartialArgs(state.open.args, call.partialArgs ?? []);
    return call.willContinue ? [] : closeCall(state);
  }
  const closed = closeCall(state);
  const index = state.calls++;
  const args = mergeGeminiPartialArgs(call.args ?? {}, call.partialArgs ?? []);
  if (call.willContinue) state.open = { index, args };
  const start: ChunkToolCallDelta = {
    index,
    id: `call_${index}`,
    type: 'function',
    function: { name: call.name, arguments: call.willContinue ? '' : JSON.stringify(args) },
  };
  return [...closed, start];
}

function closeCall(state: CandidateState): ChunkToolCallDelta[] {
  const { open } = state;
  if (!open) return [];
  state.open = undefined;
  return [{ index: open.index, function: { arguments: JSON.stringify(open.args) } }];
}
