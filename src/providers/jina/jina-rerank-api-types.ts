/**
 * Jina's rerank protocol (POST /v1/rerank), which many hosts copy (Together,
 * vLLM, SiliconFlow, Novita, …), as far as the gateway uses it.
 */

export interface JinaRerankRequest {
  model: string;
  query: string;
  documents: string[];
  top_n?: number;
  return_documents: false;
}
