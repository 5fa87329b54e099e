import { describe, expect, it } from 'vitest';
import { readFixtureJson } from '../shared/recorded-fixtures.testing.js';
import { convertJinaRerankResponse } from './convert-jina-rerank-response.js';
import { convertToJinaRerankRequest } from './convert-to-jina-rerank-request.js';

describe('convertToJinaRerankRequest', () => {
  it('sends the endpoint model, query, documents and top_n, and asks for no documents back', () => {
    const request = { model: 'jina/reranker', query: 'q', documents: ['a', 'b'], top_n: 1, user: 'alice' };
    expect(convertToJinaRerankRequest(request, { upstreamModel: 'jina-reranker-v2-base-multilingual' })).toEqual({
      model: 'jina-reranker-v2-base-multilingual',
      query: 'q',
      documents: ['a', 'b'],
      top_n: 1,
      return_documents: false,
    });
  });
});

describe('convertJinaRerankResponse', () => {
  it("reads Jina's shape: results with documents, total tokens", () => {
    const body = {
      model: 'jina-reranker-v2-base-multilingual',
      results: [
        { index: 1, relevance_score: 0.83, document: { text: 'Paris' } },
        { index: 0, relevance_score: 0.02, document: { text: 'Berlin' } },
      ],
      usage: { total_tokens: 21 },
    };
    expect(convertJinaRerankResponse(body)).toEqual({
      scores: [
        { index: 1, relevance_score: 0.83 },
        { index: 0, relevance_score: 0.02 },
      ],
      usage: { total_tokens: 21 },
    });
  });

  it('reads voyage-reranking.1, whose scores are under data', () => {
    expect(convertJinaRerankResponse(readFixtureJson('jina/voyage-reranking.1.json'))).toEqual({
      scores: [
        { index: 1, relevance_score: 0.8984375 },
        { index: 0, relevance_score: 0.14160156 },
      ],
      usage: { total_tokens: 12 },
    });
  });

  it('keeps an id and falls back to prompt_tokens (Together, Novita)', () => {
    expect(convertJinaRerankResponse({ id: 'r-1', results: [], usage: { prompt_tokens: 9 } })).toEqual({
      id: 'r-1',
      scores: [],
      usage: { total_tokens: 9 },
    });
  });

  it.each([
    ['an error body', { detail: 'Invalid API key' }],
    ['a result with a text score', { results: [{ index: 0, relevance_score: 'high' }] }],
    ['a list instead of an object', [{ index: 0, relevance_score: 1 }]],
  ])('finds no ranking in %s', (_, body) => {
    expect(convertJinaRerankResponse(body)).toBeUndefined();
  });
});
