import type { ChatCompletionChunk, ChatRequest, FinishReason, Usage } from '../../protocol/chat.js';
import type { PipelineEntry } from '../pipeline-entry.js';
import { ToolCallDeltas } from './tool-call-deltas.js';
import type { ServerToolRun, ToolLoop } from './tool-loop.js';

type Chunks = AsyncIterator<ChatCompletionChunk>;

/** What a streamed loop came to, known once its last step ends. */
export interface StreamedLoopEnd {
  entry: PipelineEntry;
  innerCost: number;
}

const hasContent = (delta: Record<string, unknown>) =>
  Object.values(delta).some((value) => value !== undefined && value !== null && value !== '');

/**
 * A streaming completion with server tools: the chunks to relay, step by
 * step. Text streams as it arrives; tool-call deltas, finish reasons and
 * usage of each step are held back. A step that called only server tools
 * is run (ToolLoop) and the next step opened; the last step's held client
 * tool calls, if any, follow in one chunk, then a final chunk with its
 * finish reason and the usage of every step. `end` learns the loop's entry
 * before that final chunk is yielded. With `announce`, each server-tool call
 * is also yielded as `announce` makes it, once before it runs and once after
 * (with its result), for an API that shows the calls (Responses').
 */
export async function* streamWithServerTools<T = never>(
  loop: ToolLoop,
  first: Chunks,
  open: (request: ChatRequest) => Promise<Chunks>,
  end: (outcome: StreamedLoopEnd) => void,
  announce?: (run: ServerToolRun) => T,
): AsyncGenerator<ChatCompletionChunk | T> {
  let upstream = first;
  try {
    for (let step = 0; ; step++) {
      const deltas = new ToolCallDeltas();
      let usage: Usage | undefined;
      let finishReason: FinishReason = null;
      let nativeFinishReason: string | null = null;
      let template: ChatCompletionChunk | undefined;
      let text = '';
      for (let next = await upstream.next(); !next.done; next = await upstream.next()) {
        const { usage: reported, choices, ...chunk } = next.value;
        template = next.value;
        if (reported) usage = reported;
        const relayed: ChatCompletionChunk['choices'] = [];
        for (const choice of choices) {
          const { tool_calls: calls, role, ...delta } = choice.delta;
          if (calls) deltas.add(calls);
          finishReason = choice.finish_reason ?? finishReason;
          nativeFinishReason = choice.native_finish_reason ?? nativeFinishReason;
          text += delta.content ?? '';
          // One answer: the role opens the first step only.
          const kept = step === 0 && role ? { role, ...delta } : delta;
          if (hasContent(kept)) relayed.push({ index: choice.index, delta: kept, finish_reason: null });
        }
        if (relayed.length > 0) yield { ...chunk, choices: relayed };
      }
      loop.saw(usage, finishReason);
      const calls = deltas.done();
      if (loop.takesStep(calls)) {
        loop.startStep(text || null, calls);
        for (const call of calls) {
          if (announce) yield announce({ call });
          const ran = await loop.run(call);
          if (announce) yield announce(ran);
        }
        loop.endStep();
        upstream = await open(loop.nextRequest());
        continue;
      }
      end({ entry: loop.entry(), innerCost: loop.innerCost });
      const base = {
        id: template?.id ?? '',
        object: 'chat.completion.chunk' as const,
        created: template?.created ?? 0,
        model: template?.model ?? '',
      };
      if (calls.length > 0)
        yield {
          ...base,
          choices: [{ index: 0, delta: { tool_calls: calls.map((call, index) => ({ index, ...call })) }, finish_reason: null }],
        };
      const total = loop.usage();
      yield {
        ...base,
        choices: [
          { index: 0, delta: {}, finish_reason: finishReason, ...(nativeFinishReason ? { native_finish_reason: nativeFinishReason } : {}) },
        ],
        ...(total ? { usage: total } : {}),
      };
      return;
    }
  } finally {
    await upstream.return?.();
  }
}
