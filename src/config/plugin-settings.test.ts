import { describe, expect, it } from 'vitest';
import { pluginSettings } from './plugin-settings.js';

describe('pluginSettings', () => {
  it('has no search engine and no open range by default', () => {
    expect(pluginSettings(undefined, {})).toEqual({ allowPrivateRanges: [] });
  });

  it('takes Exa from the environment', () => {
    expect(pluginSettings(undefined, { EXA_API_KEY: 'k', EXA_BASE_URL: 'http://127.0.0.1:8081' }).exa).toEqual({
      baseUrl: 'http://127.0.0.1:8081',
      apiKey: 'k',
      timeoutMs: 15_000,
    });
    expect(pluginSettings(undefined, { EXA_API_KEY: 'k' }).exa?.baseUrl).toBe('https://api.exa.ai');
  });

  it('prefers the config file', () => {
    const settings = pluginSettings(
      { network: { allow_private_ranges: ['10.0.0.0/8'] }, web_search: { exa: { api_key: 'file-key', timeout_ms: 500 } } },
      { EXA_API_KEY: 'env-key' },
    );
    expect(settings).toEqual({
      allowPrivateRanges: ['10.0.0.0/8'],
      exa: { baseUrl: 'https://api.exa.ai', apiKey: 'file-key', timeoutMs: 500 },
    });
  });
});
