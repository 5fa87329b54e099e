import { describe, expect, it } from 'vitest';
import { TEXT_ONLY } from '../../catalog/defaults.js';
import type { Endpoint, Model } from '../../catalog/types.js';
import { compileGuardrail } from '../../guardrails/compile-guardrail.js';
import { applyRuleInput } from '../../guardrails/guardrail-rules.js';
import { readProviderPreferences } from '../../routing/provider-preferences.js';
import { keyEndpointFilter, modelsForKey } from './key-endpoint-filter.js';

const endpoint = (provider: string, facts: Partial<Endpoint> = {}): Endpoint => ({
  provider,
  upstreamModel: 'm',
  pricing: { prompt: 1e-6, completion: 2e-6 },
  ...facts,
});
const model = (id: string, endpoints: Endpoint[]): Model => ({
  id,
  name: id,
  description: '',
  created: 0,
  architecture: TEXT_ONLY,
  endpoints,
});
const MODELS = [model('a/one', [endpoint('alpha', { zdr: true }), endpoint('beta')]), model('b/two', [endpoint('beta')])];
const guardrail = (rules: Parameters<typeof applyRuleInput>[1]) => ({
  guardrail: compileGuardrail('g1', 'rail', applyRuleInput(undefined, rules)),
  scope: 'api-key' as const,
});
const listed = (models: Model[]) => models.map((m) => [m.id, m.endpoints.map((e) => e.provider)]);

describe('modelsForKey', () => {
  it('keeps every model when nothing restricts the key', () => {
    expect(listed(modelsForKey(MODELS, keyEndpointFilter(readProviderPreferences(null), [])))).toEqual([
      ['a/one', ['alpha', 'beta']],
      ['b/two', ['beta']],
    ]);
  });

  it("drops the endpoints the organization's provider preferences exclude, and models left with none", () => {
    const allowed = keyEndpointFilter(readProviderPreferences({ zdr: true }), []);
    expect(listed(modelsForKey(MODELS, allowed))).toEqual([['a/one', ['alpha']]]);
  });

  it('drops what any guardrail of the key does not allow', () => {
    const preferences = readProviderPreferences(null);
    expect(listed(modelsForKey(MODELS, keyEndpointFilter(preferences, [guardrail({ allowed_models: ['b/*'] })])))).toEqual([
      ['b/two', ['beta']],
    ]);
    const both = [guardrail({ ignored_providers: ['alpha'] }), guardrail({ allowed_models: ['a/one'] })];
    expect(listed(modelsForKey(MODELS, keyEndpointFilter(preferences, both)))).toEqual([['a/one', ['beta']]]);
  });
});
