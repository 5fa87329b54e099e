/**
 * The canonical rerank request and response (spec 4.4). Adapters translate
 * them to and from each provider's protocol; between the route and the
 * adapter everything speaks these.
 */

/** A validated rerank request. `provider` preferences are accepted as chat accepts them. */
export interface RerankRequest {
  model: string;
  query: string;
  documents: string[];
  top_n?: number;
  provider?: Record<string, unknown> | null;
  user?: string;
}

/** One document's score as a provider reports it: its position in the request and its relevance. */
export interface RerankScore {
  index: number;
  relevance_score: number;
}

/** What the provider reported it consumed; each is absent when it did not say. */
export interface ReportedRerankUsage {
  search_units?: number;
  total_tokens?: number;
}

/** An adapter's answer: scores in any order (the gateway sorts), and the provider's own id and usage. */
export interface UpstreamRerank {
  id?: string;
  scores: RerankScore[];
  usage: ReportedRerankUsage;
}

/** A rerank result item (spec 2.8). */
export interface RerankResult extends RerankScore {
  document: { text: string };
}

export interface RerankUsage {
  search_units: number;
  total_tokens: number;
  /** USD, added by the gateway from the catalog's pricing. */
  cost?: number;
}

/** The rerank response (spec 4.4). */
export interface RerankResponse {
  id: string;
  model: string;
  provider: string;
  results: RerankResult[];
  usage: RerankUsage;
}
