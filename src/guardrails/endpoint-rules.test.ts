import { describe, expect, it } from 'vitest';
import { guardrailExclusion } from './endpoint-rules.js';
import { applyRuleInput, type GuardrailRuleInput } from './guardrail-rules.js';

const paid = { provider: 'openai', pricing: { prompt: 1e-6, completion: 2e-6 } };
const exclusion = (input: GuardrailRuleInput, model: string, endpoint: Parameters<typeof guardrailExclusion>[2] = paid) =>
  guardrailExclusion(applyRuleInput(undefined, input), model, endpoint);

describe('guardrailExclusion', () => {
  it('allows models by id or vendor wildcard and drops ignored ones', () => {
    expect(exclusion({ allowed_models: ['openai/*'] }, 'openai/gpt-5')).toBeUndefined();
    expect(exclusion({ allowed_models: ['openai/gpt-5'] }, 'anthropic/claude')).toBe('model anthropic/claude not in allowed_models');
    expect(exclusion({ ignored_models: ['OpenAI/GPT-5'] }, 'openai/gpt-5')).toBe('model openai/gpt-5 in ignored_models');
  });

  it('allows and ignores providers', () => {
    expect(exclusion({ allowed_providers: ['anthropic'] }, 'openai/gpt-5')).toBe('provider openai not in allowed_providers');
    expect(exclusion({ ignored_providers: ['openai'] }, 'openai/gpt-5')).toBe('provider openai in ignored_providers');
  });

  it('enforces zero data retention per vendor; an unknown fact fails', () => {
    expect(exclusion({ enforce_zdr_openai: true }, 'openai/gpt-5')).toBe('enforce_zdr_openai: no zero data retention');
    expect(exclusion({ enforce_zdr_openai: true }, 'openai/gpt-5', { ...paid, zdr: true })).toBeUndefined();
    expect(exclusion({ enforce_zdr_openai: true }, 'mistral/large')).toBeUndefined();
    expect(exclusion({ enforce_zdr_other: true }, 'mistral/large')).toBe('enforce_zdr_other: no zero data retention');
  });

  it('drops endpoints that may train on data when training is not allowed for their price class', () => {
    expect(exclusion({ enable_paid_model_training: false }, 'openai/gpt-5', { ...paid, dataCollection: 'allow' })).toMatch(
      /^enable_paid_model_training is false/,
    );
    expect(exclusion({ enable_paid_model_training: false }, 'openai/gpt-5', { ...paid, dataCollection: 'deny' })).toBeUndefined();
    const free = { provider: 'x', pricing: { prompt: 0, completion: 0 } };
    expect(exclusion({ enable_paid_model_training: false }, 'a/b', free)).toBeUndefined();
    expect(exclusion({ enable_free_model_training: false }, 'a/b', free)).toMatch(
      /^enable_free_model_training is false: data policy unknown/,
    );
  });
});
