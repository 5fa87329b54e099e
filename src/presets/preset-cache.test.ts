import { describe, expect, it } from 'vitest';
import { PresetCache, presetCacheId } from './preset-cache.js';
import type { PresetSettings } from './preset-fields.js';

describe('PresetCache', () => {
  const stored: PresetSettings = { config: { model: 'acme/chat' }, systemPrompt: 'Be brief.' };

  it('loads a preset once, shares concurrent misses, and reloads it after a notice', async () => {
    const loads: string[] = [];
    let current = stored;
    const cache = new PresetCache(async (workspaceId, slug) => {
      loads.push(`${workspaceId}:${slug}`);
      return current;
    });
    const [a, b] = await Promise.all([cache.get('ws-1', 'team/fast'), cache.get('ws-1', 'team/fast')]);
    expect(a).toEqual(stored);
    expect(b).toBe(a);
    expect(await cache.get('ws-1', 'team/fast')).toBe(a);
    expect(loads).toEqual(['ws-1:team/fast']);

    current = { config: { model: 'acme/other' }, systemPrompt: null };
    cache.invalidate(presetCacheId('ws-1', 'team/fast'));
    expect(await cache.get('ws-1', 'team/fast')).toEqual(current);
    expect(loads).toHaveLength(2);
  });

  it('keeps workspaces apart and does not remember an unknown slug', async () => {
    let created = false;
    const cache = new PresetCache(async (workspaceId) => (workspaceId === 'ws-1' && created ? stored : undefined));
    expect(await cache.get('ws-1', 'new')).toBeUndefined();
    created = true;
    expect(await cache.get('ws-1', 'new')).toEqual(stored);
    expect(await cache.get('ws-2', 'new')).toBeUndefined();
  });
});
