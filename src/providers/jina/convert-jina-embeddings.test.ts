import { describe, expect, it } from 'vitest';
import { convertToJinaEmbeddingsRequest } from './convert-to-jina-embeddings-request.js';

const target = { upstreamModel: 'jina-embeddings-v3' };
const request = { model: 'jina/v3', input: { kind: 'text' as const, texts: ['a'] } };

describe('convertToJinaEmbeddingsRequest', () => {
  it('sends texts as floats with no task unless asked', () => {
    expect(convertToJinaEmbeddingsRequest(request, target)).toEqual({ model: 'jina-embeddings-v3', input: ['a'], embedding_type: 'float' });
  });

  it.each([
    ['search_query', 'retrieval.query'],
    ['search_document', 'retrieval.passage'],
    ['clustering', 'separation'],
    ['text-matching', 'text-matching'],
  ])('sends input_type %s as task %s', (inputType, task) => {
    expect(convertToJinaEmbeddingsRequest({ ...request, input_type: inputType, dimensions: 64 }, target)).toMatchObject({
      task,
      dimensions: 64,
    });
  });
});
