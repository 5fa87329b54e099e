import { describe, expect, it } from 'vitest';
import { chatBodyMessage } from './chat-body-validation.testing.js';

describe('provider preferences', () => {
  it.each([
    [
      'every field of the reference',
      {
        allow_fallbacks: false,
        require_parameters: true,
        data_collection: 'deny',
        zdr: true,
        enforce_distillable_text: false,
        order: ['Anthropic', 'my-custom-slug'],
        only: ['OpenAI'],
        ignore: ['Azure'],
        quantizations: ['fp8', 'bf16'],
        sort: 'throughput',
        max_price: { prompt: '1.5', completion: '10', image: '0.01', audio: '0', request: '0.002' },
        preferred_min_throughput: 50,
        preferred_max_latency: { p50: 1.5, p90: 4, p99: null },
      },
    ],
    ['null preferences', null],
    [
      'nulls in every nullable field',
      {
        allow_fallbacks: null,
        data_collection: null,
        order: null,
        only: null,
        ignore: null,
        quantizations: null,
        sort: null,
        preferred_max_latency: null,
      },
    ],
    ['sort as an object', { sort: { by: 'price', partition: 'none' } }],
    ['sort with null parts', { sort: { by: null, partition: null } }],
    ['max_price as numbers, as documented examples send them', { max_price: { prompt: 1, completion: 2.5 } }],
    ['percentile throughput cut-offs', { preferred_min_throughput: { p75: 30 } }],
  ])('accepts %s', (_, provider) => {
    expect(chatBodyMessage({ provider })).toBeNull();
  });

  it.each([
    [{ allow_fallback: true }, 'provider has an unknown property "allow_fallback"'],
    [{ allow_fallbacks: 'no' }, 'provider.allow_fallbacks must be of type boolean or null'],
    [{ require_parameters: 1 }, 'provider.require_parameters must be of type boolean or null'],
    [{ data_collection: 'maybe' }, 'provider.data_collection must be one of "deny", "allow", null'],
    [{ zdr: 'true' }, 'provider.zdr must be of type boolean or null'],
    [{ enforce_distillable_text: 'true' }, 'provider.enforce_distillable_text must be of type boolean or null'],
    [{ order: 'OpenAI' }, 'provider.order must be of type array or null'],
    [{ only: [1] }, 'provider.only[0] must be of type string'],
    [{ ignore: 'Azure' }, 'provider.ignore must be of type array or null'],
    [
      { quantizations: ['int3'] },
      'provider.quantizations[0] must be one of "int4", "int8", "fp4", "mxfp4", "nvfp4", "fp6", "fp8", "mxfp8", "fp16", "bf16", "fp32", "unknown"',
    ],
    [{ sort: 'cheapest' }, 'provider.sort must be one of "price", "throughput", "latency", "exacto"'],
    [{ sort: 5 }, 'provider.sort must be of type string or object or null'],
    [{ sort: { by: 'cost' } }, 'provider.sort.by must be one of "price", "throughput", "latency", "exacto", null'],
    [{ sort: { partition: 'provider' } }, 'provider.sort.partition must be one of "model", "none", null'],
    [{ max_price: { prompt: 'cheap' } }, 'provider.max_price.prompt must match the pattern ^\\d+(\\.\\d+)?$'],
    [{ max_price: { completion: -1 } }, 'provider.max_price.completion must be >= 0'],
    [{ max_price: { request: true } }, 'provider.max_price.request must be of type string or number'],
    [{ preferred_max_latency: '5' }, 'provider.preferred_max_latency must be of type number or object or null'],
    [{ preferred_max_latency: { p50: 'fast' } }, 'provider.preferred_max_latency.p50 must be of type number or null'],
    [{ preferred_min_throughput: { p99: '1' } }, 'provider.preferred_min_throughput.p99 must be of type number or null'],
  ])('refuses %j', (provider, message) => {
    expect(chatBodyMessage({ provider })).toBe(message);
  });

  it('refuses preferences that are not an object', () => {
    expect(chatBodyMessage({ provider: 'OpenAI' })).toBe('provider must be of type object or null');
  });
});
