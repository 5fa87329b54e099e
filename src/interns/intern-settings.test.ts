import { describe, expect, it } from 'vitest';
import { INTERN_SETTING_DEFAULTS, parseInternSettings } from './intern-settings.js';

describe('parseInternSettings', () => {
  it('fills defaults: one hour deadline, one open question, every built-in tool, no domains', () => {
    expect(parseInternSettings('{}')).toEqual(INTERN_SETTING_DEFAULTS);
    expect(parseInternSettings(null).deadline_seconds).toBe(3600);
    expect(parseInternSettings(null).interaction_deadline_seconds).toBe(300);
    expect(parseInternSettings('{"interaction_deadline_seconds":30}').interaction_deadline_seconds).toBe(30);
    expect(parseInternSettings('not json').tools).toEqual(['http_fetch', 'notify', 'ask_question']);
  });

  it('keeps what was stored and ignores mistyped fields', () => {
    const settings = parseInternSettings(
      JSON.stringify({
        allowed_domains: ['example.com'],
        webhook_url: 'https://h.example/x',
        deadline_seconds: 60,
        max_open_questions: 'two',
        tools: ['notify'],
      }),
    );
    expect(settings).toMatchObject({
      allowed_domains: ['example.com'],
      webhook_url: 'https://h.example/x',
      deadline_seconds: 60,
      max_open_questions: 1,
      tools: ['notify'],
    });
  });
});
