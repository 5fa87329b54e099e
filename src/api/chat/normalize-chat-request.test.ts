import { describe, expect, it } from 'vitest';
import { normalizeChatRequest } from './normalize-chat-request.js';
import type { ChatRequestBody } from './schemas.js';

const messages: ChatRequestBody['messages'] = [{ role: 'user', content: 'Hi' }];
const normalize = (fields: Partial<ChatRequestBody>, sessionIdHeader?: string) =>
  normalizeChatRequest({ messages, model: 'openai/gpt-4o', ...fields }, sessionIdHeader);

describe('normalizeChatRequest', () => {
  it('keeps a plain request as it is', () => {
    expect(normalize({ temperature: 0.2, stream: true })).toEqual({ messages, model: 'openai/gpt-4o', temperature: 0.2, stream: true });
  });

  describe('service_tier', () => {
    it('turns the alias fast into priority', () => {
      expect(normalize({ service_tier: 'fast' }).service_tier).toBe('priority');
    });

    it.each(['auto', 'default', 'flex', 'priority', 'scale', null] as const)('keeps %s', (tier) => {
      expect(normalize({ service_tier: tier }).service_tier).toBe(tier);
    });
  });

  describe('reasoning_effort', () => {
    it('becomes reasoning.effort', () => {
      const request = normalize({ reasoning_effort: 'high' });
      expect(request.reasoning).toEqual({ effort: 'high' });
      expect(request).not.toHaveProperty('reasoning_effort');
    });

    it('joins the other reasoning fields', () => {
      expect(normalize({ reasoning_effort: 'low', reasoning: { summary: 'auto', exclude: true } }).reasoning).toEqual({
        effort: 'low',
        summary: 'auto',
        exclude: true,
      });
    });

    it('fills a null reasoning.effort', () => {
      expect(normalize({ reasoning_effort: 'minimal', reasoning: { effort: null } }).reasoning).toEqual({ effort: 'minimal' });
    });

    it('leaves reasoning alone when the shorthand is null', () => {
      expect(normalize({ reasoning_effort: null, reasoning: { effort: 'max' } }).reasoning).toEqual({ effort: 'max' });
      expect(normalize({ reasoning_effort: null })).not.toHaveProperty('reasoning');
    });
  });

  describe('token limits', () => {
    it('takes the deprecated max_tokens as the completion limit, keeping it', () => {
      const request = normalize({ max_tokens: 100 });
      expect(request.max_completion_tokens).toBe(100);
      expect(request.max_tokens).toBe(100);
    });

    it('prefers max_completion_tokens when both are sent', () => {
      expect(normalize({ max_tokens: 100, max_completion_tokens: 50 }).max_completion_tokens).toBe(50);
    });

    it('falls back to max_tokens when max_completion_tokens is null', () => {
      expect(normalize({ max_tokens: 100, max_completion_tokens: null }).max_completion_tokens).toBe(100);
    });

    it('adds no limit when none was sent', () => {
      expect(normalize({})).not.toHaveProperty('max_completion_tokens');
    });
  });

  describe('session_id', () => {
    it('takes the body value over the x-session-id header', () => {
      expect(normalize({ session_id: 'from-body' }, 'from-header').session_id).toBe('from-body');
    });

    it('takes the header value when the body has none', () => {
      expect(normalize({}, 'from-header').session_id).toBe('from-header');
    });

    it('ignores an empty header', () => {
      expect(normalize({}, '')).not.toHaveProperty('session_id');
    });
  });

  it('keeps the deprecated route', () => {
    expect(normalize({ route: 'fallback' }).route).toBe('fallback');
  });

  it('drops objects sent as null', () => {
    const request = normalize({ provider: null, prediction: null, stream_options: null, prompt_cache_options: null });
    expect(request).toEqual({ messages, model: 'openai/gpt-4o' });
  });

  it('keeps objects that were sent', () => {
    const fields = {
      provider: { order: ['Anthropic'] },
      prediction: { type: 'content', content: 'x' },
      stream_options: { include_usage: true },
      prompt_cache_options: { mode: 'explicit' },
    } satisfies Partial<ChatRequestBody>;
    expect(normalize(fields)).toMatchObject(fields);
  });

  it('moves the server-tool entries of tools to server_tools: only functions go upstream', () => {
    const fn = { type: 'function' as const, function: { name: 'lookup' } };
    const search = { type: 'service:web_search' as const, parameters: { max_results: 2 } };
    const fusion = { type: 'service:fusion' as const };
    expect(normalizeChatRequest({ messages, tools: [search, fn, fusion] })).toEqual({
      messages,
      tools: [fn],
      server_tools: [search, fusion],
    });
    expect(normalizeChatRequest({ messages, tools: [search] })).toEqual({ messages, server_tools: [search] });
    expect(normalizeChatRequest({ messages, tools: [] })).toEqual({ messages, tools: [] });
  });

  it('drops vendor extras the body was allowed to carry', () => {
    const body = { messages, model: 'm', n: 2, store: true } as ChatRequestBody;
    expect(normalizeChatRequest(body)).toEqual({ messages, model: 'm' });
  });

  it('leaves the body unchanged', () => {
    const body: ChatRequestBody = { messages, service_tier: 'fast', reasoning_effort: 'low', reasoning: { summary: 'auto' } };
    const copy = structuredClone(body);
    normalizeChatRequest(body, 'header-session');
    expect(body).toEqual(copy);
  });
});
