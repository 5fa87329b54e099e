import { IN_PROCESS_KIND } from '../config/gateway-config-schema.js';
import { DEFAULT_TIMEOUT_MS, RERANK } from './defaults.js';
import type { Model, Provider } from './types.js';

/** The gateway itself as a provider: what it serves runs in its own process. */
export const GATEWAY_PROVIDER: Provider = {
  id: 'gateway',
  name: 'Gateway',
  kind: IN_PROCESS_KIND,
  baseUrl: '',
  timeoutMs: DEFAULT_TIMEOUT_MS,
};

/** Keyword reranking that needs no network, no key and no cost: rerank works on a bare `npm start`. */
export const LOCAL_BM25: Model = {
  id: 'local/bm25',
  name: 'Local: BM25',
  description: 'Okapi BM25 keyword ranking, run by the gateway itself; relevance scores are normalised to 0..1.',
  created: 0,
  architecture: RERANK,
  endpoints: [{ provider: GATEWAY_PROVIDER.id, upstreamModel: 'bm25', pricing: { prompt: 0, completion: 0 } }],
};

/** The in-process provider and its models, when an adapter speaks its kind. */
export function inProcessCatalog(knownKinds: readonly string[]): { provider: Provider; models: Model[] }[] {
  return knownKinds.includes(GATEWAY_PROVIDER.kind) ? [{ provider: GATEWAY_PROVIDER, models: [LOCAL_BM25] }] : [];
}
