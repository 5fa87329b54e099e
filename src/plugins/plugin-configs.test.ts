import { describe, expect, it } from 'vitest';
import { activePlugins } from './plugin-configs.js';

describe('activePlugins', () => {
  it('is empty when neither the organization nor the request names a plugin', () => {
    expect(activePlugins([], undefined).size).toBe(0);
    expect(activePlugins([], []).size).toBe(0);
  });

  it('applies organization defaults the request does not mention', () => {
    expect([...activePlugins([{ id: 'moderation' }], [{ id: 'response-healing' }]).keys()]).toEqual(['moderation', 'response-healing']);
  });

  it('merges a default and the request field by field, the request winning', () => {
    const plugins = activePlugins([{ id: 'web', max_results: 5, engine: 'exa' }], [{ id: 'web', max_results: 2 }]);
    expect(plugins.get('web')).toEqual({ id: 'web', max_results: 2, engine: 'exa' });
  });

  it('turns a plugin off for the request with enabled: false, whoever enabled it', () => {
    expect(activePlugins([{ id: 'moderation' }], [{ id: 'moderation', enabled: false }]).has('moderation')).toBe(false);
    expect(activePlugins([], [{ id: 'response-healing', enabled: false }]).size).toBe(0);
  });

  it('lets the request turn on a plugin a default turned off', () => {
    expect(activePlugins([{ id: 'moderation', enabled: false }], [{ id: 'moderation', enabled: true }]).has('moderation')).toBe(true);
  });
});
