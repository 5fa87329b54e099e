import { describe, expect, it } from 'vitest';
import { toEmbeddingsInput, toEmbeddingsRequest } from './to-embeddings-request.js';

describe('toEmbeddingsInput', () => {
  it.each([
    ['a string', 'hi', { kind: 'text', texts: ['hi'] }],
    ['strings', ['a', 'b'], { kind: 'text', texts: ['a', 'b'] }],
    ['a token array', [1, 2], { kind: 'tokens', tokens: [[1, 2]] }],
    ['token arrays', [[1], [2, 3]], { kind: 'tokens', tokens: [[1], [2, 3]] }],
  ])('reads %s as a list', (_, input, expected) => {
    expect(toEmbeddingsInput(input as never)).toEqual(expected);
  });
});

describe('toEmbeddingsRequest', () => {
  it('keeps the fields the flow uses, and no others', () => {
    const body = {
      model: 'm/e',
      input: 'x',
      encoding_format: 'base64' as const,
      dimensions: 8,
      input_type: 'search_query',
      user: 'u',
      extra: 1,
    };
    expect(toEmbeddingsRequest(body)).toEqual({
      model: 'm/e',
      input: { kind: 'text', texts: ['x'] },
      dimensions: 8,
      input_type: 'search_query',
      user: 'u',
    });
  });

  it('refuses more than 2048 inputs, naming the field', () => {
    expect(() => toEmbeddingsRequest({ model: 'm/e', input: Array.from({ length: 2049 }, () => 'x') })).toThrow(
      'input must have at most 2048 items',
    );
  });
});
