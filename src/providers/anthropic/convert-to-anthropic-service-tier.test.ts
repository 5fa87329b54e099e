import { describe, expect, it } from 'vitest';
import type { ServiceTier } from '../../protocol/routing-vocabulary.js';
import { convertToAnthropicServiceTier } from './convert-to-anthropic-service-tier.js';

const ALL: ServiceTier[] = ['auto', 'default', 'flex', 'priority', 'scale'];

describe('convertToAnthropicServiceTier', () => {
  it.each([
    ['priority', 'auto'],
    ['fast', 'auto'],
    ['auto', 'auto'],
    ['default', 'standard_only'],
    ['flex', undefined],
    ['scale', undefined],
    [null, undefined],
    [undefined, undefined],
  ] as const)('maps %s to %s', (tier, expected) => {
    expect(convertToAnthropicServiceTier(tier, ALL)).toBe(expected);
  });

  it('sends nothing for a tier the endpoint does not offer', () => {
    expect(convertToAnthropicServiceTier('priority', ['auto', 'default'])).toBeUndefined();
    expect(convertToAnthropicServiceTier('priority', undefined)).toBeUndefined();
  });
});
