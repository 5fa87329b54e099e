import { describe, expect, it } from 'vitest';
import { INTERN_SETTING_DEFAULTS } from '../../interns/intern-settings.js';
import { mergeSettings, namesSettings } from './settings-body.js';

describe('mergeSettings', () => {
  it('starts from the defaults, keeps stored values, and takes what the body names (null included)', () => {
    const created = mergeSettings(null, { deadline_seconds: 60, allowed_domains: ['example.com'] });
    expect(created).toEqual({ ...INTERN_SETTING_DEFAULTS, deadline_seconds: 60, allowed_domains: ['example.com'] });
    const updated = mergeSettings(JSON.stringify({ ...created, turns_per_minute: 5 }), {
      turns_per_minute: null,
      webhook_url: 'https://hook.example/x',
    });
    expect(updated).toMatchObject({
      deadline_seconds: 60,
      turns_per_minute: null,
      webhook_url: 'https://hook.example/x',
      allowed_domains: ['example.com'],
    });
    expect(namesSettings({ name: 'x' })).toBe(false);
    expect(namesSettings({ tools: [] })).toBe(true);
  });
});
