import type { SseFraming } from '../deliver.js';
import { OVERLOADED_EVENT } from './anthropic-errors.js';
import { messageUsage } from './anthropic-message.js';
import type { MessageIdentity } from './message-identity.js';
import type { AnthropicReply } from './plan-anthropic-reply.js';

/**
 * The events of a Messages stream, as JSON texts in Anthropic's order:
 * message_start (usage with the input count), then each content block as
 * content_block_start, its deltas and content_block_stop (a ping after the
 * first block opens, as in recorded traffic), then message_delta with the
 * stop reason and the cumulative usage, and message_stop. Thinking streams as
 * thinking_delta pieces and a signature_delta; a tool call as an empty
 * tool_use followed by input_json_delta pieces, the first one empty, as
 * Anthropic sends them.
 */
export function anthropicStreamEvents(plan: AnthropicReply, model: string, identity: MessageIdentity): string[] {
  const events: object[] = [
    {
      type: 'message_start',
      message: {
        model,
        id: identity.id,
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: messageUsage(plan, 1),
      },
    },
  ];
  let index = 0;
  const block = (start: object, deltas: object[]) => {
    events.push({ type: 'content_block_start', index, content_block: start });
    if (index === 0) events.push({ type: 'ping' });
    for (const delta of deltas) events.push({ type: 'content_block_delta', index, delta });
    events.push({ type: 'content_block_stop', index });
    index++;
  };

  const { reply } = plan;
  if (plan.thinking) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...plan.thinking.map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: identity.signature },
    ]);
  }
  if (reply.kind === 'tool_call') {
    block(
      { type: 'tool_use', id: identity.toolUseId, name: reply.name, input: {} },
      ['', ...reply.argumentChunks].map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    );
  } else if (reply.chunks.length > 0) {
    block(
      { type: 'text', text: '' },
      reply.chunks.map((tokens) => ({ type: 'text_delta', text: tokens.join('') })),
    );
  }

  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: plan.stopReason, stop_sequence: plan.stopSequence },
      usage: {
        input_tokens: plan.inputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: plan.outputTokens,
      },
    },
    { type: 'message_stop' },
  );
  return events.map((event) => JSON.stringify(event));
}

/**
 * Anthropic's framing: each event named by an `event:` line (its data's
 * type), nothing after message_stop, and an `event: error` overloaded_error
 * for a stream that fails with `fail_mode=error-event`. The names are read
 * before `malformed` may truncate the data.
 */
export function anthropicFraming(events: readonly string[]): SseFraming {
  const names = events.map((data) => (JSON.parse(data) as { type: string }).type);
  return {
    frame: (data, index) => `event: ${names[index]}\ndata: ${data}\n\n`,
    end: '',
    errorEnd: `event: error\ndata: ${JSON.stringify(OVERLOADED_EVENT)}\n\n`,
  };
}
