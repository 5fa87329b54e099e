import { describe, expect, it } from 'vitest';
import { rerankUsage } from './rerank-usage.js';

const request = (documents: number) => ({ query: 'abcd', documents: Array.from({ length: documents }, () => 'efgh') });

describe('rerankUsage', () => {
  it('takes what the provider reported', () => {
    expect(rerankUsage({ search_units: 1, total_tokens: 40 }, request(3))).toEqual({
      usage: { search_units: 1, total_tokens: 40 },
      estimated: false,
    });
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

  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['text', 'abc'],
    ['1e308', 1e308],
    ['more than the documents could need', 50],
  ])('counts itself search units the provider reported as %s', (_, units) => {
    expect(rerankUsage({ search_units: units as number, total_tokens: 5 }, request(3))).toEqual({
      usage: { search_units: 1, total_tokens: 5 },
      estimated: true,
    });
  });

  it('counts itself tokens more than the query read with each document could hold', () => {
    expect(rerankUsage({ search_units: 1, total_tokens: 1_000_000 }, request(3))).toEqual({
      usage: { search_units: 1, total_tokens: 4 },
      estimated: true,
    });
    expect(rerankUsage({ search_units: 1, total_tokens: 60 }, request(3))).toEqual({
      usage: { search_units: 1, total_tokens: 60 },
      estimated: false,
    });
  });

  it('takes more search units than documents/100 when long documents may have been cut into chunks', () => {
    const long = { query: 'q', documents: ['word '.repeat(2_000)] };
    expect(rerankUsage({ search_units: 2, total_tokens: 10 }, long).estimated).toBe(false);
    expect(rerankUsage({ search_units: 3, total_tokens: 10 }, long).estimated).toBe(true);
  });
});
