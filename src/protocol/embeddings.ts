/**
 * The canonical embeddings request and answer (the reference's POST
 * /embeddings). Adapters translate them to and from each provider's protocol;
 * between the route and the adapter everything speaks these.
 */

/**
 * What is embedded, one item per vector: texts, or token arrays (the
 * OpenAI protocol's pre-tokenized input). The route turns the reference's
 * single string or single token array into a list of one.
 */
export type EmbeddingsInput = { kind: 'text'; texts: string[] } | { kind: 'tokens'; tokens: number[][] };

/** A validated embeddings request. `provider` preferences are accepted as chat accepts them. */
export interface EmbeddingsRequest {
  model: string;
  input: EmbeddingsInput;
  /** The length of each vector, for the models that can shorten theirs. */
  dimensions?: number;
  /**
   * What the input is for ("search_query", "search_document",
   * "classification", "clustering", or a provider's own name for it), for the
   * providers that embed differently by purpose; the others ignore it.
   */
  input_type?: string;
  provider?: Record<string, unknown> | null;
  user?: string;
}

/** What the provider reported it read; absent when it did not say. */
export interface ReportedEmbeddingsUsage {
  prompt_tokens?: number;
}

/** An adapter's answer: one vector per input item, in input order, and the provider's own id and usage. */
export interface UpstreamEmbeddings {
  id?: string;
  vectors: number[][];
  usage: ReportedEmbeddingsUsage;
}

/** One embedding of the response: floats, or their little-endian float32 bytes in base64 (OpenAI's encoding). */
export interface EmbeddingItem {
  object: 'embedding';
  index: number;
  embedding: number[] | string;
}

/** The embeddings response (the reference's, OpenAI's with the gateway's id, provider and cost). */
export interface EmbeddingsResponse {
  id: string;
  object: 'list';
  model: string;
  provider: string;
  data: EmbeddingItem[];
  usage: { prompt_tokens: number; total_tokens: number; cost: number };
}
