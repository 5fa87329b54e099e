import { describe, expect, it } from 'vitest';
import { mergePlugins } from './merge-plugins.js';

describe('mergePlugins', () => {
  const auto = { id: 'auto-router', allowed_models: ['openai/*'], cost_tier: 'low' };
  it.each([
    { name: 'no defaults: the request’s plugins', defaults: null, request: [{ id: 'web' }], merged: [{ id: 'web' }] },
    { name: 'neither', defaults: [], request: undefined, merged: undefined },
    {
      name: 'defaults the request does not name are added after its own',
      defaults: [auto],
      request: [{ id: 'web' }],
      merged: [{ id: 'web' }, auto],
    },
    {
      name: 'the request’s fields win over a default of the same id',
      defaults: [auto],
      request: [{ id: 'auto-router', cost_tier: 'max' }],
      merged: [{ ...auto, cost_tier: 'max' }],
    },
    {
      name: 'enabled: false turns a default off',
      defaults: [auto],
      request: [{ id: 'auto-router', enabled: false }],
      merged: [{ ...auto, enabled: false }],
    },
    { name: 'no request: the defaults', defaults: [auto], request: undefined, merged: [auto] },
  ])('$name', ({ defaults, request, merged }) => {
    expect(mergePlugins(defaults, request)).toEqual(merged);
  });
});
