import { describe, expect, it } from 'vitest';
import { applyRuleInput } from './guardrail-rules.js';

describe('applyRuleInput', () => {
  it('stores every rule, null when unset', () => {
    const rules = applyRuleInput(undefined, { allowed_providers: ['openai'] });
    expect(rules.allowed_providers).toEqual(['openai']);
    expect(rules.allowed_models).toBeNull();
    expect(rules.max_prompt_tokens).toBeNull();
  });

  it('replaces named fields on update and keeps the others', () => {
    const first = applyRuleInput(undefined, { allowed_providers: ['openai'], blocked_keywords: ['x'] });
    const second = applyRuleInput(first, { allowed_providers: ['anthropic'], blocked_keywords: null });
    expect(second).toMatchObject({ allowed_providers: ['anthropic'], blocked_keywords: null });
  });

  it('copies the deprecated enforce_zdr into the per-vendor fields not given', () => {
    const rules = applyRuleInput(undefined, { enforce_zdr: true, enforce_zdr_openai: false });
    expect(rules).toMatchObject({ enforce_zdr: null, enforce_zdr_openai: false, enforce_zdr_anthropic: true, enforce_zdr_other: true });
  });

  it('drops caller-set labels of builtin filters', () => {
    const rules = applyRuleInput(undefined, { content_filter_builtins: [{ slug: 'email', action: 'redact', label: '[MINE]' }] });
    expect(rules.content_filter_builtins).toEqual([{ slug: 'email', action: 'redact' }]);
  });
});
