import { describe, expect, it } from 'vitest';
import { convertCohereEmbedResponse } from './convert-cohere-embed-response.js';
import { convertToCohereEmbedRequest } from './convert-to-cohere-embed-request.js';

const target = { upstreamModel: 'embed-v4.0' };
const request = { model: 'cohere/embed-v4.0', input: { kind: 'text' as const, texts: ['a', 'b'] } };

describe('convertToCohereEmbedRequest', () => {
  it('sends texts as floats, embedded as documents unless input_type says otherwise', () => {
    expect(convertToCohereEmbedRequest(request, target)).toEqual({
      model: 'embed-v4.0',
      texts: ['a', 'b'],
      input_type: 'search_document',
      embedding_types: ['float'],
    });
    expect(convertToCohereEmbedRequest({ ...request, input_type: 'search_query', dimensions: 512 }, target)).toEqual({
      model: 'embed-v4.0',
      texts: ['a', 'b'],
      input_type: 'search_query',
      embedding_types: ['float'],
      output_dimension: 512,
    });
  });
});

describe('convertCohereEmbedResponse', () => {
  it('reads the float vectors, the id and the billed input tokens', () => {
    const body = {
      id: 'e-1',
      embeddings: {
        float: [
          [0.1, 0.2],
          [0.3, 0.4],
        ],
      },
      texts: ['a', 'b'],
      meta: { api_version: { version: '2' }, billed_units: { input_tokens: 2 } },
      response_type: 'embeddings_by_type',
    };
    expect(convertCohereEmbedResponse(body)).toEqual({
      id: 'e-1',
      vectors: [
        [0.1, 0.2],
        [0.3, 0.4],
      ],
      usage: { prompt_tokens: 2 },
    });
  });

  it.each([
    ['an error body', { id: 'x', message: 'invalid api token' }],
    ['only int8 vectors', { embeddings: { int8: [[1]] } }],
    ['a vector that is not a list', { embeddings: { float: ['x'] } }],
  ])('finds no embeddings in %s', (_, body) => {
    expect(convertCohereEmbedResponse(body)).toBeUndefined();
  });
});
