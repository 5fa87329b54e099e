import { describe, expect, it } from 'vitest';
import { readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { convertCohereRerankResponse } from './convert-cohere-rerank-response.js';
import { convertToCohereRerankRequest } from './convert-to-cohere-rerank-request.js';

const request = {
  model: 'cohere/rerank-v3.5',
  query: 'capital of France',
  documents: ['Berlin', 'Paris'],
  user: 'alice',
  provider: { sort: 'price' },
};

describe('convertToCohereRerankRequest', () => {
  it('sends the endpoint model, query, documents and top_n, nothing of the gateway’s own', () => {
    expect(convertToCohereRerankRequest({ ...request, top_n: 1 }, { upstreamModel: 'rerank-v3.5' })).toEqual({
      model: 'rerank-v3.5',
      query: 'capital of France',
      documents: ['Berlin', 'Paris'],
      top_n: 1,
    });
    expect(convertToCohereRerankRequest(request, { upstreamModel: 'rerank-v3.5' })).not.toHaveProperty('top_n');
  });
});

describe('convertCohereRerankResponse', () => {
  it('reads cohere-reranking.1: scores, id and billed search units', () => {
    expect(convertCohereRerankResponse(readFixtureJson('cohere/cohere-reranking.1.json'))).toEqual({
      id: 'b44fe75b-e3d3-489a-b61e-1a1aede3ef72',
      scores: [
        { index: 1, relevance_score: 0.10183054 },
        { index: 0, relevance_score: 0.03762639 },
      ],
      usage: { search_units: 1 },
    });
  });

  it('reads an answer without id or meta', () => {
    expect(convertCohereRerankResponse({ results: [] })).toEqual({ scores: [], usage: {} });
  });

  it.each([
    ['an error body', { id: 'x', message: 'invalid api token' }],
    ['a result without a score', { results: [{ index: 0 }] }],
    ['no JSON at all', undefined],
  ])('finds no ranking in %s', (_, body) => {
    expect(convertCohereRerankResponse(body)).toBeUndefined();
  });
});
