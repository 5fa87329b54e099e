import { describe, expect, it } from 'vitest';
import { convertOpenAIEmbeddingsResponse } from './convert-openai-embeddings-response.js';
import { convertToOpenAIEmbeddingsRequest } from './convert-to-openai-embeddings-request.js';

const target = { upstreamModel: 'text-embedding-3-small' };

describe('convertToOpenAIEmbeddingsRequest', () => {
  it('sends texts as floats with dimensions, and nothing of the gateway’s own', () => {
    const request = {
      model: 'openai/te3',
      input: { kind: 'text' as const, texts: ['a', 'b'] },
      dimensions: 256,
      input_type: 'search_query',
      provider: { sort: 'price' },
    };
    expect(convertToOpenAIEmbeddingsRequest(request, target)).toEqual({
      model: 'text-embedding-3-small',
      input: ['a', 'b'],
      encoding_format: 'float',
      dimensions: 256,
    });
  });

  it('sends token arrays as they are, and the end user as the keyed hash only when the client named one', () => {
    const tokens = { model: 'm', input: { kind: 'tokens' as const, tokens: [[1, 2]] } };
    expect(convertToOpenAIEmbeddingsRequest(tokens, target, 'hash-1')).toEqual({
      model: 'text-embedding-3-small',
      input: [[1, 2]],
      encoding_format: 'float',
    });
    expect(convertToOpenAIEmbeddingsRequest({ ...tokens, user: 'alice' }, target, 'hash-1')).toMatchObject({ user: 'hash-1' });
  });
});

describe('convertOpenAIEmbeddingsResponse', () => {
  it('puts the vectors in index order and reads prompt_tokens', () => {
    const body = {
      object: 'list',
      data: [
        { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
        { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
      ],
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 5, total_tokens: 5 },
    };
    expect(convertOpenAIEmbeddingsResponse(body)).toEqual({
      vectors: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
      usage: { prompt_tokens: 5 },
    });
  });

  it('reads an answer without usage', () => {
    expect(convertOpenAIEmbeddingsResponse({ data: [{ index: 0, embedding: [1] }] })).toEqual({ vectors: [[1]], usage: {} });
  });

  it.each([
    ['an error body', { error: { message: 'nope' } }],
    ['a base64 embedding', { data: [{ index: 0, embedding: 'AAAA' }] }],
    ['an empty vector', { data: [{ index: 0, embedding: [] }] }],
    ['a non-number', { data: [{ index: 0, embedding: [1, 'x'] }] }],
    ['an index out of range', { data: [{ index: 1, embedding: [1] }] }],
    [
      'an index twice',
      {
        data: [
          { index: 0, embedding: [1] },
          { index: 0, embedding: [2] },
        ],
      },
    ],
    ['no JSON at all', undefined],
  ])('finds no embeddings in %s', (_, body) => {
    expect(convertOpenAIEmbeddingsResponse(body)).toBeUndefined();
  });
});
