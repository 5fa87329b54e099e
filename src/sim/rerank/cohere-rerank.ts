import { randomUUID } from 'node:crypto';
import { countSearchUnits } from '../../rerank/rerank-usage.js';
import { rerankRoute } from './handle-rerank.js';

/** `POST /v2/rerank`, Cohere's v2 shape: bare scores, an id, billed search units; errors `{"id", "message"}`. */
export const handleCohereRerank = rerankRoute({
  errorBody: (message) => ({ id: randomUUID(), message }),
  answer: (request, scores) => ({
    id: randomUUID(),
    results: scores,
    meta: { api_version: { version: '2' }, billed_units: { search_units: countSearchUnits(request.documents.length) } },
  }),
});
