import { describe, expect, it } from 'vitest';
import { convertGeminiEmbedResponse } from './convert-gemini-embed-response.js';
import { convertToGeminiEmbedRequest } from './convert-to-gemini-embed-request.js';

const target = { upstreamModel: 'gemini-embedding-001' };
const texts = (input_type?: string) => ({
  model: 'google/e',
  input: { kind: 'text' as const, texts: ['a', 'b'] },
  ...(input_type ? { input_type } : {}),
});

describe('convertToGeminiEmbedRequest', () => {
  it('makes one EmbedContentRequest per text, naming the model', () => {
    expect(convertToGeminiEmbedRequest({ ...texts(), dimensions: 768 }, target)).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'a' }] }, outputDimensionality: 768 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'b' }] }, outputDimensionality: 768 },
      ],
    });
  });

  it.each([
    ['search_query', 'RETRIEVAL_QUERY'],
    ['search_document', 'RETRIEVAL_DOCUMENT'],
    ['classification', 'CLASSIFICATION'],
    ['clustering', 'CLUSTERING'],
    ['semantic_similarity', 'SEMANTIC_SIMILARITY'],
  ])('sends input_type %s as taskType %s', (inputType, taskType) => {
    expect(convertToGeminiEmbedRequest(texts(inputType), target).requests[0]).toMatchObject({ taskType });
  });
});

describe('convertGeminiEmbedResponse', () => {
  it('reads the values in request order, with no usage (Gemini reports none)', () => {
    expect(convertGeminiEmbedResponse({ embeddings: [{ values: [0.1] }, { values: [0.2] }] })).toEqual({
      vectors: [[0.1], [0.2]],
      usage: {},
    });
  });

  it.each([
    ['an error body', { error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } }],
    ['an embedding without values', { embeddings: [{}] }],
    ['a value that is no number', { embeddings: [{ values: [null] }] }],
  ])('finds no embeddings in %s', (_, body) => {
    expect(convertGeminiEmbedResponse(body)).toBeUndefined();
  });
});
