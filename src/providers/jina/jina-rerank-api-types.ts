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

export interface JinaRerankResponse {
  id?: string;
  model?: string;
  /** Voyage answers with `data` instead. */
  results?: { index: number; relevance_score: number; document?: { text?: string } }[];
  data?: { index: number; relevance_score: number }[];
  /** Some hosts report prompt_tokens only. */
  usage?: { total_tokens?: number; prompt_tokens?: number };
}
