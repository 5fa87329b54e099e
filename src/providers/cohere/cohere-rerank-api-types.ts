/** Cohere's v2 rerank protocol (POST /v2/rerank), as far as the gateway uses it. */

export interface CohereRerankRequest {
  model: string;
  query: string;
  documents: string[];
  top_n?: number;
}
