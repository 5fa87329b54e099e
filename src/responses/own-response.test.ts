import { describe, expect, it } from 'vitest';
import type { ResponseObject } from '../protocol/responses.js';
import { responseShell } from './convert-chat-to-response.js';
import { ownResponse } from './own-response.js';

const upstream: ResponseObject = responseShell({ input: 'hi' }, { id: 'resp_upstream', model: 'gpt-x', createdAt: 1 });
const identity = { id: 'gen-1', model: 'openai/gpt-x' };

describe('ownResponse', () => {
  it("makes the id and model the gateway's, and names the fields an upstream left out as the request set them, else null", () => {
    expect(ownResponse(upstream, identity, { input: 'hi', presence_penalty: 0.5 })).toMatchObject({
      id: 'gen-1',
      model: 'openai/gpt-x',
      completed_at: null,
      presence_penalty: 0.5,
      frequency_penalty: null,
    });
  });

  it('keeps what the upstream said of them', () => {
    const finished = { ...upstream, status: 'completed' as const, completed_at: 9, presence_penalty: 0, frequency_penalty: 0.25 };
    expect(ownResponse(finished, identity, { input: 'hi', presence_penalty: 0.5 })).toMatchObject({
      completed_at: 9,
      presence_penalty: 0,
      frequency_penalty: 0.25,
    });
  });

  it('leaves out a usage not known yet (null), and keeps a known one', () => {
    expect(upstream.usage).toBeNull();
    expect(ownResponse(upstream, identity, { input: 'hi' })).not.toHaveProperty('usage');
    const usage = {
      input_tokens: 1,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 3,
    };
    expect(ownResponse({ ...upstream, usage }, identity, { input: 'hi' }).usage).toEqual(usage);
  });
});
