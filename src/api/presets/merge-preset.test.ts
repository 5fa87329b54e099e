import { describe, expect, it } from 'vitest';
import { parsePresetReference } from '../../presets/preset-reference.js';
import type { ChatRequestBody } from '../chat/schemas.js';
import { mergePreset } from './merge-preset.js';
import { presetFromRequest } from './preset-from-request.js';

const user = { role: 'user' as const, content: 'hi' };
const preset = {
  config: { model: 'sim/fast', temperature: 0.3, provider: { order: ['alpha'] }, reasoning: { effort: 'high' }, max_tokens: 50 },
  systemPrompt: 'Be brief.',
};
const merge = (body: Partial<ChatRequestBody> & Record<string, unknown>) =>
  mergePreset({ messages: [user], ...body } as ChatRequestBody, parsePresetReference(body as { model?: string })!, preset);

describe('parsePresetReference', () => {
  it.each([
    ['@preset/bot', { slug: 'bot' }],
    ['openai/gpt-4o@preset/bot', { slug: 'bot', model: 'openai/gpt-4o' }],
  ])('reads %s', (model, expected) => {
    expect(parsePresetReference({ model })).toEqual(expected);
  });

  it('reads the preset field and ignores plain models', () => {
    expect(parsePresetReference({ model: 'sim/fast', preset: 'bot' })).toEqual({ slug: 'bot' });
    expect(parsePresetReference({ model: 'sim/fast' })).toBeUndefined();
    expect(parsePresetReference({})).toBeUndefined();
  });
});

describe('mergePreset', () => {
  it('fills unset fields from the preset and prepends its system prompt', () => {
    expect(merge({ model: '@preset/bot' })).toEqual({
      messages: [{ role: 'system', content: 'Be brief.' }, user],
      ...preset.config,
    });
  });

  it('lets every request field win, whole objects included', () => {
    const merged = merge({ model: '@preset/bot', temperature: 1, provider: { sort: 'price' } });
    expect(merged).toMatchObject({ model: 'sim/fast', temperature: 1, provider: { sort: 'price' } });
    expect(merged.provider).not.toHaveProperty('order');
  });

  it('uses the model named beside the preset', () => {
    expect(merge({ model: 'sim/other@preset/bot' }).model).toBe('sim/other');
  });

  it('drops the preset field and keeps the request model with it', () => {
    const merged = merge({ model: 'sim/other', preset: 'bot' });
    expect(merged.model).toBe('sim/other');
    expect(merged).not.toHaveProperty('preset');
  });

  it('treats an alias in the request as overriding the preset’s whole group', () => {
    const merged = merge({ model: '@preset/bot', reasoning_effort: 'low', max_completion_tokens: 9 });
    expect(merged).not.toHaveProperty('reasoning');
    expect(merged).not.toHaveProperty('max_tokens');
    expect(merged).toMatchObject({ reasoning_effort: 'low', max_completion_tokens: 9 });
  });

  it('keeps the request’s own system or developer message', () => {
    for (const role of ['system', 'developer'] as const) {
      const messages = [{ role, content: 'Mine.' }, user];
      expect(merge({ model: '@preset/bot', messages }).messages).toEqual(messages);
    }
  });

  it('adds no system message when the preset has none', () => {
    const merged = mergePreset({ messages: [user], model: '@preset/bot' }, { slug: 'bot' }, { config: {}, systemPrompt: null });
    expect(merged).toEqual({ messages: [user] });
  });
});

describe('presetFromRequest', () => {
  it('keeps the preset fields and the system messages, nothing per call', () => {
    const body = {
      model: 'sim/fast',
      temperature: 0.5,
      stream: true,
      user: 'u1',
      top_p: null,
      messages: [{ role: 'system', content: 'One.' }, { role: 'system', content: [{ type: 'text', text: 'Two.' }] }, user],
    } as ChatRequestBody;
    expect(presetFromRequest(body)).toEqual({ config: { model: 'sim/fast', temperature: 0.5 }, systemPrompt: 'One.\n\nTwo.' });
  });

  it('has no system prompt without a system message', () => {
    expect(presetFromRequest({ messages: [user] }).systemPrompt).toBeNull();
  });
});
