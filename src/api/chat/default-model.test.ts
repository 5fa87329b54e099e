import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../protocol/chat.js';
import { applyDefaultModel } from './default-model.js';

const request = (fields: Partial<ChatRequest>): ChatRequest => ({ messages: [{ role: 'user', content: 'Hi' }], ...fields });

describe('applyDefaultModel', () => {
  it.each([
    ['a model', { model: 'openai/gpt-4o' }],
    ['a preset', { model: '@preset/support-bot' }],
    ['a models list', { models: ['openai/gpt-4o', 'anthropic/claude-sonnet-4'] }],
  ])('keeps a request naming %s', (_, fields) => {
    const named = request(fields);
    expect(applyDefaultModel(named, 'fallback/model')).toBe(named);
  });

  it('uses the default when no model is named', () => {
    expect(applyDefaultModel(request({}), 'openai/gpt-4o-mini').model).toBe('openai/gpt-4o-mini');
  });

  it('reads an empty models list as no model', () => {
    expect(applyDefaultModel(request({ models: [] }), 'openai/gpt-4o-mini').model).toBe('openai/gpt-4o-mini');
  });

  it('refuses with a 400 when no model is named and there is no default', () => {
    expect(() => applyDefaultModel(request({}), undefined)).toThrow(
      expect.objectContaining({ statusCode: 400, message: 'model is required' }),
    );
  });
});
