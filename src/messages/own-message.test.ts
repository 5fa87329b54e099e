import { describe, expect, it } from 'vitest';
import { ownEvent, ownMessage } from './own-message.js';

const relayed = {
  id: 'gen-1',
  type: 'message' as const,
  role: 'assistant' as const,
  model: 'claude/sim',
  content: [
    { type: 'thinking', thinking: 'hm', signature: 'sig' },
    { type: 'text', text: 'Hi' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
  ],
  stop_reason: 'tool_use' as const,
  stop_sequence: null,
  usage: { input_tokens: 9, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: 'standard' },
};

describe('ownMessage', () => {
  it('names what the Message did not say as null: container, stop_details, citations, the unknown parts of usage; a tool call is direct', () => {
    expect(ownMessage(relayed)).toEqual({
      ...relayed,
      container: null,
      stop_details: null,
      content: [
        { type: 'thinking', thinking: 'hm', signature: 'sig' },
        { type: 'text', text: 'Hi', citations: null },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' }, caller: { type: 'direct' } },
      ],
      usage: { ...relayed.usage, cache_creation: null, output_tokens_details: null, server_tool_use: null, inference_geo: null },
    });
  });

  it('keeps what it did say, nulls included', () => {
    const said = {
      ...relayed,
      container: { id: 'c1', expires_at: '2026-01-01T00:00:00Z' },
      content: [{ type: 'text', text: 'Hi', citations: [] }],
      usage: { ...relayed.usage, cache_creation: { ephemeral_5m_input_tokens: 1, ephemeral_1h_input_tokens: 0 }, service_tier: null },
    };
    const owned = ownMessage(said);
    expect(owned.container).toEqual(said.container);
    expect(owned.content).toEqual(said.content);
    expect(owned.usage).toMatchObject({ cache_creation: said.usage.cache_creation, service_tier: null });
  });
});

describe('ownEvent', () => {
  it("fills message_start's Message, a started block and message_delta; leaves the others as they are", () => {
    expect(ownEvent({ type: 'message_start', message: { ...relayed, content: [] } }).message).toMatchObject({
      container: null,
      stop_details: null,
    });
    expect(ownEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }).content_block).toEqual({
      type: 'text',
      text: '',
      citations: null,
    });
    expect(
      ownEvent({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } }),
    ).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null, container: null, stop_details: null },
      usage: {
        output_tokens: 3,
        cache_creation: null,
        output_tokens_details: null,
        server_tool_use: null,
        inference_geo: null,
        service_tier: null,
      },
    });
    const delta = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } };
    expect(ownEvent(delta)).toBe(delta);
  });
});
