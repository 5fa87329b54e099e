import { describe, expect, it } from 'vitest';
import { convertAnthropicUsage } from './convert-anthropic-usage.js';

describe('convertAnthropicUsage', () => {
  it('counts cache reads and writes in the prompt, and reports them apart for pricing', () => {
    expect(
      convertAnthropicUsage({
        input_tokens: 6,
        cache_read_input_tokens: 6289,
        cache_creation_input_tokens: 3337,
        output_tokens: 198,
        service_tier: 'standard',
      }),
    ).toStrictEqual({
      prompt_tokens: 9632,
      completion_tokens: 198,
      total_tokens: 9830,
      prompt_tokens_details: { cached_tokens: 6289, cache_write_tokens: 3337 },
    });
  });

  it('keeps the thinking count as reasoning tokens when Anthropic gives it', () => {
    expect(convertAnthropicUsage({ input_tokens: 10, output_tokens: 50, output_tokens_details: { thinking_tokens: 30 } })).toStrictEqual({
      prompt_tokens: 10,
      completion_tokens: 50,
      total_tokens: 60,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 30 },
    });
  });

  it('reads missing and null counts as zero', () => {
    expect(convertAnthropicUsage({ input_tokens: null })).toStrictEqual({
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    });
  });

  it('makes the prompt none when a part of it is no count, and passes each figure on as sent, to be checked', () => {
    const usage = convertAnthropicUsage({ input_tokens: 10, cache_read_input_tokens: -5, output_tokens: 3 });
    expect(usage.prompt_tokens).toBeNaN();
    expect(usage.prompt_tokens_details).toStrictEqual({ cached_tokens: -5, cache_write_tokens: 0 });
    expect(convertAnthropicUsage({ input_tokens: 'abc' as never, output_tokens: 3 }).prompt_tokens).toBeNaN();
    expect(
      convertAnthropicUsage({ input_tokens: 1, output_tokens: 3, output_tokens_details: { thinking_tokens: 'x' as never } })
        .completion_tokens_details,
    ).toStrictEqual({
      reasoning_tokens: 'x',
    });
  });
});
