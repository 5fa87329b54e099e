import type { ServerToolRun } from '../plugins/server-tools/tool-loop.js';
import type { ChatCompletionChunk, FinishReason, ToolCall, Usage } from '../protocol/chat.js';
import type { ResponseObject, ResponseStreamEvent, ResponsesOutputItem } from '../protocol/responses.js';
import { codeInterpreterCallItem, isCodeRun } from './code-interpreter-call.js';
import { type ItemIds, responseEnding, responsesUsage } from './convert-chat-to-response.js';

type OpenItem =
  | { kind: 'reasoning'; index: number; id: string; text: string }
  | { kind: 'message'; index: number; id: string; text: string }
  | { kind: 'call'; index: number; id: string; callId: string; name: string; arguments: string; chunkIndex: number };

/**
 * A chat stream's chunks as the Responses API's typed events, in its order:
 * `response.created` and `response.in_progress`, then each output item
 * opened (`response.output_item.added`), filled (`response.output_text.delta`,
 * `response.reasoning_text.delta`, `response.function_call_arguments.delta`)
 * and closed (`….done`, `response.output_item.done`) as the model moves from
 * reasoning to text to tool calls, and last `response.completed` (or
 * `response.incomplete` when the answer was cut). Every event carries the
 * next `sequence_number`; items their `output_index`, parts their
 * `content_index`. Refusal deltas have no place in a text part and are left out.
 * The gateway's code runs (its server-tool loop's, pushed with `tool`) are
 * code_interpreter_call items between the model's steps, in OpenAI's events.
 */
export class ChatChunksToResponseEvents {
  private sequence = 0;
  private readonly output: ResponsesOutputItem[] = [];
  private open: OpenItem | undefined;
  private finishReason: FinishReason | undefined;
  private serviceTier: string | null | undefined;
  /** The last usage a chunk reported, canonical. */
  usage: Usage | undefined;
  /** The upstream's id of the answer, from its first chunk. */
  upstreamId: string | undefined;
  /** The code runs under way: their item's id and place. */
  private readonly running = new Map<ToolCall, { id: string; index: number }>();

  constructor(
    private readonly shell: ResponseObject,
    private readonly ids: ItemIds,
    /** Whether code_interpreter_call items carry their outputs (the request's `include` asks). */
    private readonly codeOutputs = false,
  ) {}

  private event(type: string, fields: Record<string, unknown>): ResponseStreamEvent {
    return { type, sequence_number: this.sequence++, ...fields };
  }

  /** The opening events: the Response created, and in progress. */
  start(): ResponseStreamEvent[] {
    return [this.event('response.created', { response: this.shell }), this.event('response.in_progress', { response: this.shell })];
  }

  /** The events of one chunk (choice 0: a Response has one answer). */
  push(chunk: ChatCompletionChunk): ResponseStreamEvent[] {
    const events: ResponseStreamEvent[] = [];
    this.upstreamId ??= chunk.id;
    if (chunk.usage) this.usage = chunk.usage;
    if (chunk.service_tier != null) this.serviceTier = chunk.service_tier;
    const choice = chunk.choices.find((c) => c.index === 0);
    if (!choice) return events;
    const { delta } = choice;
    if (delta.reasoning) {
      const item = this.ensure('reasoning', events);
      item.text += delta.reasoning;
      events.push(
        this.event('response.reasoning_text.delta', {
          item_id: item.id,
          output_index: item.index,
          content_index: 0,
          delta: delta.reasoning,
        }),
      );
    }
    if (delta.content) {
      const item = this.ensure('message', events);
      item.text += delta.content;
      events.push(
        this.event('response.output_text.delta', {
          item_id: item.id,
          output_index: item.index,
          content_index: 0,
          delta: delta.content,
          logprobs: [],
        }),
      );
    }
    for (const call of delta.tool_calls ?? []) {
      const current = this.open?.kind === 'call' && this.open.chunkIndex === call.index ? this.open : undefined;
      const item = current ?? this.openCall(call.index, call.id ?? '', call.function?.name ?? '', events);
      if (!current && call.function?.arguments === undefined) continue;
      const args = call.function?.arguments ?? '';
      if (current && call.function?.name) item.name += call.function.name;
      if (args === '') continue;
      item.arguments += args;
      events.push(this.event('response.function_call_arguments.delta', { item_id: item.id, output_index: item.index, delta: args }));
    }
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    return events;
  }

  /**
   * The events of a server tool's call (a code run's; another tool's are not
   * shown): before it runs, the open item closed and its code_interpreter_call
   * item added, its code, and `interpreting`; once it ran, `completed` and the
   * item done, with its status, container and outputs.
   */
  tool(run: ServerToolRun): ResponseStreamEvent[] {
    const events: ResponseStreamEvent[] = [];
    const started = this.running.get(run.call);
    if (run.result && started) {
      this.running.delete(run.call);
      const done = codeInterpreterCallItem(run, started.id, this.codeOutputs);
      const at = { item_id: started.id, output_index: started.index };
      this.output.push(done);
      events.push(this.event('response.code_interpreter_call.completed', at));
      events.push(this.event('response.output_item.done', { output_index: started.index, item: done }));
      return events;
    }
    if (run.result || !isCodeRun(run)) return events;
    const item = codeInterpreterCallItem(run, this.ids('ci'), false);
    this.close(events);
    const index = this.output.length;
    this.running.set(run.call, { id: item.id, index });
    const at = { item_id: item.id, output_index: index };
    const code = item.code ?? '';
    events.push(this.event('response.output_item.added', { output_index: index, item: { ...item, code: '' } }));
    events.push(this.event('response.code_interpreter_call.in_progress', at));
    if (code !== '') events.push(this.event('response.code_interpreter_call_code.delta', { ...at, delta: code }));
    events.push(this.event('response.code_interpreter_call_code.done', { ...at, code }));
    events.push(this.event('response.code_interpreter_call.interpreting', at));
    return events;
  }

  /** The closing events: the open item done, then `response.completed` (or `.incomplete`) with the whole Response. */
  finish(completedAt: number): ResponseStreamEvent[] {
    const events: ResponseStreamEvent[] = [];
    this.close(events);
    const response = this.response(completedAt);
    events.push(this.event(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response }));
    return events;
  }

  /** The Response as it stands once finished: its items, status and usage. */
  response(completedAt: number): ResponseObject {
    return {
      ...this.shell,
      ...responseEnding(this.finishReason),
      completed_at: completedAt,
      output: [...this.output],
      ...(this.serviceTier != null ? { service_tier: this.serviceTier } : {}),
      usage: this.usage ? responsesUsage(this.usage) : null,
    };
  }

  private ensure(kind: 'reasoning' | 'message', events: ResponseStreamEvent[]): Extract<OpenItem, { kind: 'reasoning' | 'message' }> {
    if (this.open?.kind === kind) return this.open;
    this.close(events);
    const index = this.output.length;
    if (kind === 'reasoning') {
      const item: OpenItem = { kind, index, id: this.ids('rs'), text: '' };
      this.open = item;
      events.push(
        this.event('response.output_item.added', {
          output_index: index,
          item: { type: 'reasoning', id: item.id, summary: [], content: [], status: 'in_progress' },
        }),
      );
      events.push(
        this.event('response.content_part.added', {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          part: { type: 'reasoning_text', text: '' },
        }),
      );
      return item;
    }
    const item: OpenItem = { kind, index, id: this.ids('msg'), text: '' };
    this.open = item;
    events.push(
      this.event('response.output_item.added', {
        output_index: index,
        item: { type: 'message', id: item.id, role: 'assistant', status: 'in_progress', content: [] },
      }),
    );
    events.push(
      this.event('response.content_part.added', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
      }),
    );
    return item;
  }

  private openCall(chunkIndex: number, callId: string, name: string, events: ResponseStreamEvent[]): Extract<OpenItem, { kind: 'call' }> {
    this.close(events);
    const item: Extract<OpenItem, { kind: 'call' }> = {
      kind: 'call',
      index: this.output.length,
      id: this.ids('fc'),
      callId,
      name,
      arguments: '',
      chunkIndex,
    };
    this.open = item;
    events.push(
      this.event('response.output_item.added', {
        output_index: item.index,
        item: { type: 'function_call', id: item.id, call_id: callId, name, arguments: '', status: 'in_progress' },
      }),
    );
    return item;
  }

  /** Closes the open item: its done events, and the item as it ends in the Response's output. */
  private close(events: ResponseStreamEvent[]): void {
    const item = this.open;
    if (!item) return;
    this.open = undefined;
    const at = { item_id: item.id, output_index: item.index };
    let done: ResponsesOutputItem;
    if (item.kind === 'reasoning') {
      const part = { type: 'reasoning_text' as const, text: item.text };
      events.push(this.event('response.reasoning_text.done', { ...at, content_index: 0, text: item.text }));
      events.push(this.event('response.content_part.done', { ...at, content_index: 0, part }));
      done = { type: 'reasoning', id: item.id, summary: [], content: [part], status: 'completed' };
    } else if (item.kind === 'message') {
      const part = { type: 'output_text' as const, text: item.text, annotations: [], logprobs: [] };
      events.push(this.event('response.output_text.done', { ...at, content_index: 0, text: item.text, logprobs: [] }));
      events.push(this.event('response.content_part.done', { ...at, content_index: 0, part }));
      done = {
        type: 'message',
        id: item.id,
        role: 'assistant',
        status: this.finishReason === 'length' ? 'incomplete' : 'completed',
        content: [part],
      };
    } else {
      events.push(this.event('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments }));
      done = { type: 'function_call', id: item.id, call_id: item.callId, name: item.name, arguments: item.arguments, status: 'completed' };
    }
    this.output.push(done);
    events.push(this.event('response.output_item.done', { output_index: item.index, item: done }));
  }
}
