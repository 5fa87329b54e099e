import { Errors } from '../../http/errors.js';
import type { InternRunEvent } from '../../interns/intern-runtime.js';
import type { GatewayError } from '../../protocol/gateway-error.js';
import { interactionArguments, interactionId, pendingOf } from './interaction-answer.js';

/** The one tool intern chat calls on the caller: asking for input (a question, or a tool approval). */
export const PROVIDE_INPUT = 'openrouter.provide_input';

export interface ChunkContext {
  id: string;
  created: number;
  model: string;
  sessionId: string;
}

type Delta = { role?: 'assistant'; content?: string; reasoning?: string; tool_calls?: unknown[] };

/** What every chunk of one response carries. */
const header = (ctx: ChunkContext) => ({
  id: ctx.id,
  object: 'chat.completion.chunk' as const,
  created: ctx.created,
  model: ctx.model,
  session_id: ctx.sessionId,
});

/** The SDK's InternChatCompletionChunk. */
export function chunk(
  ctx: ChunkContext,
  delta: Delta,
  finishReason: 'stop' | 'tool_calls' | 'error' | null = null,
  extra: Record<string, unknown> = {},
) {
  return { ...header(ctx), choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra };
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost: number;
}

/** The SDK's closing chunk: no choices, the session_id, and the run's usage (null while the turn is not over). */
export function finalChunk(ctx: ChunkContext, usage: ChatUsage | null) {
  return { ...header(ctx), choices: [], usage };
}

/** The SDK's InternChatStreamError of a catalogue error. */
export const streamError = (error: GatewayError) => ({
  code: error.statusCode,
  message: error.message,
  metadata: error.metadata ?? { reason: 'turn_failed', retryable: false },
});

/** A message's text: a string, or its text parts joined. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

/** Why a run ended, as the stream's last word: a stop, or an error chunk. */
function endChunk(ctx: ChunkContext, reason: string, error: string | undefined) {
  if (reason === 'finished') return chunk(ctx, {}, 'stop');
  // The SDK: a run the intern ends (cancelled, deadline) is 410 run_ended; a failed turn is turn_failed.
  const failure = reason === 'failed' ? Errors.internRunFailed(error ?? 'unknown error') : Errors.internRunEnded(reason, error);
  return chunk(ctx, {}, 'error', { error: streamError(failure) });
}

/**
 * A run event as stream chunks: the intern's words as content, its own tool
 * work as reasoning (the caller does not run those tools), a pending question
 * or approval as a call of openrouter.provide_input, and the end. The input
 * the caller sent is not echoed.
 */
export function eventChunks(ctx: ChunkContext, event: InternRunEvent): ReturnType<typeof chunk>[] {
  if (event.type === 'end') return [endChunk(ctx, event.reason, event.error)];
  if (event.type === 'pending') {
    const pending = pendingOf(event.content);
    if (!pending) return [];
    const call = {
      index: 0,
      id: interactionId(pending),
      type: 'function',
      function: { name: PROVIDE_INPUT, arguments: interactionArguments(pending) },
    };
    return [chunk(ctx, { tool_calls: [call] }, 'tool_calls')];
  }
  const c = event.content as Record<string, unknown>;
  switch (event.kind) {
    case 'assistant': {
      const message = (c.message ?? {}) as { content?: unknown; reasoning?: unknown };
      const out: Delta = {};
      const words = messageText(message.content);
      if (words) out.content = words;
      if (typeof message.reasoning === 'string' && message.reasoning) out.reasoning = message.reasoning;
      return Object.keys(out).length > 0 ? [chunk(ctx, out)] : [];
    }
    case 'tool_call':
      return [chunk(ctx, { reasoning: `[${String(c.name)}] ${String(c.arguments)}\n` })];
    case 'tool_result':
      return [chunk(ctx, { reasoning: `[${String(c.name)} ${c.error ? 'failed' : 'result'}] ${String(c.content)}\n` })];
    case 'question':
      return [chunk(ctx, { reasoning: `[question] ${String(c.question)}\n` })];
    case 'approval':
      return [chunk(ctx, { reasoning: `[approval requested] ${String(c.name)}\n` })];
    case 'answer':
      if (typeof c.granted === 'boolean')
        return [chunk(ctx, { reasoning: `[approval ${c.granted ? 'granted' : 'denied'} by ${String(c.by)}]\n` })];
      return [chunk(ctx, { reasoning: `[answer by ${String(c.by)}] ${String(c.answer ?? '')}\n` })];
    default:
      // input, steer and end steps: the caller's own words, and the end event that follows.
      return [];
  }
}
