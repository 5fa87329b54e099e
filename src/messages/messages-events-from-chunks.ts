import type { ChatCompletionChunk, FinishReason, Usage } from '../protocol/chat.js';
import type { MessagesStreamEvent } from '../protocol/messages.js';
import { convertToMessagesUsage } from './convert-to-messages-usage.js';
import { mapToMessagesStopReason } from './map-to-messages-stop-reason.js';

type BlockKind = 'text' | 'thinking' | 'tool_use';

/**
 * Anthropic's stream events for a canonical chunk stream (pure, one per
 * stream): message_start and a ping before anything else; then a content
 * block per run of reasoning (thinking), text or one tool call, each opened
 * by content_block_start, filled by deltas (thinking_delta, text_delta,
 * input_json_delta) and closed by content_block_stop when the next begins;
 * at the end message_delta with the stop reason and the usage (with the
 * gateway's cost), then message_stop. Input tokens are known only at the end: message_start says
 * 0 and message_delta carries the count, as Anthropic's own stream may.
 */
export class MessagesEventsFromChunks {
  private started = false;
  private open: { index: number; kind: BlockKind; call?: number } | undefined;
  private blocks = 0;
  private finishReason: FinishReason = null;
  private nativeReason: string | null = null;
  private usage: Usage | undefined;

  constructor(private readonly identity: { id: string; model: string }) {}

  /** The events one chunk makes (none for a chunk that only carries usage or the finish reason). */
  chunk(chunk: ChatCompletionChunk): MessagesStreamEvent[] {
    const events = this.start();
    if (chunk.usage) this.usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      const { delta } = choice;
      if (delta.reasoning) events.push(...this.into('thinking'), this.delta({ type: 'thinking_delta', thinking: delta.reasoning }));
      if (delta.content) events.push(...this.into('text'), this.delta({ type: 'text_delta', text: delta.content }));
      for (const call of delta.tool_calls ?? []) {
        if (call.id !== undefined || this.open?.kind !== 'tool_use' || this.open.call !== call.index) {
          events.push(...this.into('tool_use', call.index, { id: call.id ?? '', name: call.function?.name ?? '' }));
        }
        if (call.function?.arguments) events.push(this.delta({ type: 'input_json_delta', partial_json: call.function.arguments }));
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
      if (choice.native_finish_reason) this.nativeReason = choice.native_finish_reason;
    }
    return events;
  }

  /**
   * The closing events: the open block's end, message_delta (stop reason,
   * usage: `usage`, with its cost, else the last a chunk carried), and
   * message_stop, with `serviceMetadata` as its service_metadata when given
   * (where the reference's MessagesStopEvent has its metadata).
   */
  finish(usage?: Usage, serviceMetadata?: unknown): MessagesStreamEvent[] {
    const events = this.start();
    events.push(...this.close());
    events.push(
      {
        type: 'message_delta',
        delta: { stop_reason: mapToMessagesStopReason(this.finishReason, this.nativeReason), stop_sequence: null },
        usage: convertToMessagesUsage(usage ?? this.usage),
      },
      serviceMetadata === undefined ? { type: 'message_stop' } : { type: 'message_stop', service_metadata: serviceMetadata },
    );
    return events;
  }

  private start(): MessagesStreamEvent[] {
    if (this.started) return [];
    this.started = true;
    const message = {
      ...this.identity,
      type: 'message',
      role: 'assistant',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: null, cache_read_input_tokens: null },
    };
    return [{ type: 'message_start', message }, { type: 'ping' }];
  }

  /** Makes a block of this kind the open one, closing another first. */
  private into(kind: BlockKind, call?: number, tool?: { id: string; name: string }): MessagesStreamEvent[] {
    if (this.open?.kind === kind && kind !== 'tool_use') return [];
    const events = this.close();
    const index = this.blocks++;
    this.open = { index, kind, ...(call !== undefined ? { call } : {}) };
    const block =
      kind === 'text'
        ? { type: 'text', text: '' }
        : kind === 'thinking'
          ? { type: 'thinking', thinking: '', signature: '' }
          : { type: 'tool_use', ...tool, input: {} };
    events.push({ type: 'content_block_start', index, content_block: block });
    return events;
  }

  private close(): MessagesStreamEvent[] {
    if (!this.open) return [];
    const { index } = this.open;
    this.open = undefined;
    return [{ type: 'content_block_stop', index }];
  }

  private delta(delta: Record<string, unknown>): MessagesStreamEvent {
    return { type: 'content_block_delta', index: this.open!.index, delta };
  }
}
