import type { Endpoint } from '../catalog/types.js';
import { type StreamedLoopEnd, streamWithServerTools } from '../plugins/server-tools/stream-tool-loop.js';
import { type ServerToolRun, ToolLoop } from '../plugins/server-tools/tool-loop.js';
import type { ChatCompletionChunk, ChatRequest } from '../protocol/chat.js';
import type { Attempt } from '../routing/plan-attempts.js';
import { serverToolsOf, toolLoopOptions } from './complete-chat.js';
import { replay } from './replay.js';
import { holdForNextCall } from './reserve-chat-run.js';
import type { ChatRun } from './run.js';
import type { ChatServices } from './run-services.js';

/** An attempt's stream once its first chunk is in hand. */
export interface OpenedChatStream<T> {
  /** The chunks (the first one included) and, with `announce`, the server tools' calls. */
  chunks: AsyncIterator<ChatCompletionChunk | T>;
  /** The request of the first model call. */
  request: ChatRequest;
  /** Set by the server-tool loop when its last step ends. */
  loop: { end?: StreamedLoopEnd };
}

/**
 * One attempt's chat stream, running the server tools the model calls when
 * the run has some (chat's and Responses' alike), opened up to its first
 * chunk so that a failure before it can still fall back: each further call
 * of the loop is held for first, on top of what the calls so far cost.
 * `announce` shows each server-tool call in the stream (streamWithServerTools).
 */
export async function streamWithRunTools<T = never>(
  services: ChatServices,
  run: ChatRun,
  attempt: Attempt<Endpoint>,
  open: (request: ChatRequest) => Promise<AsyncIterator<ChatCompletionChunk>>,
  signal: AbortSignal,
  announce?: (run: ServerToolRun) => T,
): Promise<OpenedChatStream<T>> {
  const serverTools = serverToolsOf(services, run);
  const loop = serverTools.length > 0 ? new ToolLoop(run.request, serverTools, toolLoopOptions(services, run, attempt, signal)) : undefined;
  const request = loop ? loop.nextRequest() : run.request;
  const iterator = await open(request);
  const first = await iterator.next();
  const state: OpenedChatStream<T>['loop'] = {};
  if (!loop) return { chunks: replay(first, iterator), request, loop: state };
  const openNext = async (next: ChatRequest) => {
    await holdForNextCall(services, run, attempt, next, loop.usage());
    return open(next);
  };
  const chunks = streamWithServerTools(loop, replay(first, iterator), openNext, (end) => (state.end = end), announce);
  return { chunks, request, loop: state };
}
