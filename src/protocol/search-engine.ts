/** One search as the web plugin asks it, whatever engine runs it. */
export interface SearchQuery {
  query: string;
  maxResults: number;
  includeDomains?: readonly string[] | undefined;
  excludeDomains?: readonly string[] | undefined;
  /** Characters of page text per result. */
  maxCharacters: number;
  /** The reference's engine-native mode; an engine ignores the modes it does not have. */
  mode?: string | undefined;
}

export interface SearchResult {
  url: string;
  title: string;
  /** Page text (or the engine's excerpt of it), at most maxCharacters. */
  content: string;
  publishedDate?: string;
}

/** An external search API (Exa, …): results for a query, or an UpstreamError. */
export interface SearchEngine {
  readonly name: string;
  search(query: SearchQuery, signal: AbortSignal): Promise<SearchResult[]>;
}
