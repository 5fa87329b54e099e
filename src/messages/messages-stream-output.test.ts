import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from '../protocol/chat.js';
import { GatewayError } from '../protocol/gateway-error.js';
import type { MessagesStreamEvent } from '../protocol/messages.js';
import { messagesStreamOutput } from './messages-stream-output.js';

const identity = { id: 'gen-1', created: 1, model: 'claude/sim', provider: 'anth' };
const usage = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15, cost: 0.0021 };
/** What the reference's usage has that this stream's upstream did not say (own-message.ts). */
const unsaid = { cache_creation: null, output_tokens_details: null, server_tool_use: null, inference_geo: null, service_tier: null };

/** The output over a writer that keeps what it is given, parsed back. */
function recorded() {
  const written: MessagesStreamEvent[] = [];
  const output = messagesStreamOutput({
    event: async (name, payload) => {
      const event = JSON.parse(payload) as MessagesStreamEvent;
      expect(event.type).toBe(name);
      written.push(event);
    },
  });
  return { output, written };
}

const chunk = (content: string): ChatCompletionChunk => ({
  id: 'x',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

describe('messagesStreamOutput', () => {
  const upstream: MessagesStreamEvent[] = [
    { type: 'message_start', message: { id: 'msg_up', model: 'claude-sim', usage: { input_tokens: 12, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
    { type: 'message_stop' },
  ];

  it('relays an untranslated stream as it came, holding message_delta and message_stop until the end, with the cost and metadata', async () => {
    const { output, written } = recorded();
    for (const event of upstream) await output.send(undefined, event, identity);
    expect(written.map((e) => e.type)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop']);
    expect(written[0]!.message).toMatchObject({ id: 'gen-1', model: 'claude/sim', usage: { input_tokens: 12 } });
    await output.end({ usage, usageSent: true, serviceMetadata: { attempt: 2 } }, identity);
    expect(written.slice(-2)).toEqual([
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null, container: null, stop_details: null },
        usage: { output_tokens: 3, cost: 0.0021, ...unsaid },
      },
      { type: 'message_stop', service_metadata: { attempt: 2 } },
    ]);
  });

  it('sends no service_metadata when none was asked for, on either path', async () => {
    const native = recorded();
    for (const event of upstream) await native.output.send(undefined, event, identity);
    await native.output.end({ usage, usageSent: true }, identity);
    expect(native.written.at(-1)).toEqual({ type: 'message_stop' });
    expect(native.written.at(-2)!.usage).toEqual({ output_tokens: 3, cost: 0.0021, ...unsaid });

    const translated = recorded();
    await translated.output.send(chunk('Hi'), undefined, identity);
    await translated.output.end({ usage, usageSent: false }, identity);
    expect(translated.written.at(-1)).toEqual({ type: 'message_stop' });
    expect(translated.written.at(-2)!.usage).toMatchObject({ input_tokens: 12, output_tokens: 3, cost: 0.0021 });
  });

  it('ends a translated stream with the usage billed and service_metadata', async () => {
    const { output, written } = recorded();
    await output.send(chunk('Hi'), undefined, identity);
    await output.end({ usage, usageSent: false, serviceMetadata: { attempt: 1 } }, identity);
    expect(written.map((e) => e.type)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(written.at(-1)).toEqual({ type: 'message_stop', service_metadata: { attempt: 1 } });
  });

  it("ends a stream that fails after its start with Anthropic's error event, and never its held closing events", async () => {
    const { output, written } = recorded();
    for (const event of upstream.slice(0, 5)) await output.send(undefined, event, identity);
    await output.fail(new GatewayError('GW_ERR_UPSTREAM_FAILED', 502, 'mid-stream: overloaded'), identity);
    expect(written.at(-1)).toEqual({ type: 'error', error: { type: 'api_error', message: 'mid-stream: overloaded' } });
    expect(written.map((e) => e.type)).not.toContain('message_delta');
  });
});
