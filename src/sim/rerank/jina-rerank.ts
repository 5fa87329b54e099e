import { splitTokens } from '../tokens.js';
import { rerankRoute } from './handle-rerank.js';

/**
 * `POST /v1/rerank`, Jina's shape: the model, scores with their documents
 * (unless `return_documents: false`) and token usage; errors `{"detail"}`.
 */
export const handleJinaRerank = rerankRoute({
  errorBody: (message) => ({ detail: message }),
  answer: (request, scores) => ({
    model: request.model,
    results: scores.map((score) =>
      request.return_documents === false ? score : { ...score, document: { text: request.documents[score.index] } },
    ),
    usage: { total_tokens: [request.query, ...request.documents].reduce((sum, text) => sum + splitTokens(text).length, 0) },
  }),
});
