import { describe, expect, it } from 'vitest';
import type { MessagesRequest } from '../../protocol/messages.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { convertToNativeMessagesBody } from './convert-to-native-messages-body.js';

const target = { upstreamModel: 'claude-sonnet-4-5' } as UpstreamTarget;

describe('convertToNativeMessagesBody', () => {
  const body: MessagesRequest = {
    model: 'anthropic/claude-sonnet-4.5',
    max_tokens: 100,
    system: [{ type: 'text', text: 'Rules', cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 'sig' }] }],
    thinking: { type: 'enabled', budget_tokens: 1024 },
    context_management: { edits: [] },
    metadata: { user_id: 'alice' },
    models: ['x/y'],
    provider: { order: ['anthropic'] },
    plugins: [],
    session_id: 's',
    stream: true,
  };

  it("keeps Anthropic's fields as sent, names the upstream model, drops the gateway's fields, and hashes the end user", () => {
    expect(convertToNativeMessagesBody(body, target, { stream: true, endUserId: 'hashed' })).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: body.system,
      messages: body.messages,
      thinking: body.thinking,
      context_management: { edits: [] },
      metadata: { user_id: 'hashed' },
      stream: true,
    });
  });

  it('sends no stream flag on a non-streaming call and no user the client did not name', () => {
    const native = convertToNativeMessagesBody({ ...body, metadata: {} }, target, { stream: false, endUserId: 'hashed' });
    expect(native).not.toHaveProperty('stream');
    expect(native.metadata).toEqual({});
  });
});
