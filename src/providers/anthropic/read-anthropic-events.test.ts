import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../protocol/upstream.js';
import { readAnthropicEvents } from './read-anthropic-events.js';

async function* messagesOf(events: object[]) {
  for (const event of events) yield { event: (event as { type: string }).type, data: JSON.stringify(event), id: undefined };
}

const read = async (events: object[]) => {
  const out = [];
  for await (const item of readAnthropicEvents(messagesOf(events), 1)) out.push(item);
  return out;
};

const START = {
  type: 'message_start',
  message: { id: 'msg_1', model: 'claude', content: [], usage: { input_tokens: 10, output_tokens: 1 } },
};

describe('readAnthropicEvents', () => {
  it('yields every event as sent, with its canonical chunk when it has one', async () => {
    const items = await read([
      START,
      { type: 'ping' },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    ]);
    expect(items.map((item) => item.event.type)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(items[4]!.event).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } });
    expect(items.map((item) => item.chunk !== undefined)).toEqual([true, false, false, true, false, false, false, true]);
    expect(items[3]!.chunk!.choices[0]!.delta).toEqual({ reasoning: 'Hmm' });
    expect(items[7]!.chunk!.usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5 });
  });

  it('rejects on an error event with its type as the code, and on a stream cut off before message_stop', async () => {
    const failed = await read([START, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]).catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(UpstreamError);
    expect(String((failed as UpstreamError).message)).toContain('Overloaded');
    const cut = await read([START, { type: 'ping' }]).catch((error: unknown) => error);
    expect(cut).toMatchObject({ failure: 'connection' });
  });
});
