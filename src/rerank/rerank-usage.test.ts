import { describe, expect, it } from 'vitest';
import { rerankUsage } from './rerank-usage.js';

const request = (documents: number) => ({ query: 'abcd', documents: Array.from({ length: documents }, () => 'efgh') });

describe('rerankUsage', () => {
  it('takes what the provider reported', () => {
    expect(rerankUsage({ search_units: 2, total_tokens: 40 }, request(3))).toEqual({ usage: { search_units: 2, total_tokens: 40 }, estimated: false });
  });

  it('counts search units as Cohere does: one per started 100 documents', () => {
    expect(rerankUsage({ total_tokens: 5 }, request(1)).usage.search_units).toBe(1);
    expect(rerankUsage({ total_tokens: 5 }, request(100)).usage.search_units).toBe(1);
    expect(rerankUsage({ total_tokens: 5 }, request(101)).usage.search_units).toBe(2);
    expect(rerankUsage({ total_tokens: 5 }, request(1)).estimated).toBe(true);
  });

  it('estimates tokens at four characters each when the provider reports none', () => {
    expect(rerankUsage({ search_units: 1 }, request(3))).toEqual({ usage: { search_units: 1, total_tokens: 4 }, estimated: true });
  });
});
