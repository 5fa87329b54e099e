import type { CatalogInputs } from './build-catalog.js';
import { CatalogError } from './catalog-error.js';
import { declaresCatalog } from './from-config.js';
import { type LocalModel, localServers } from './local-servers.js';

const DISCOVERY_TIMEOUT_MS = 5_000;

interface ListedModel {
  id?: unknown;
  /** vLLM's addition to the OpenAI list shape. */
  max_model_len?: unknown;
}

/** One entry of the list; none when it has no id. */
function toLocalModels(entry: unknown): LocalModel[] {
  const { id, max_model_len: contextLength } = (entry ?? {}) as ListedModel;
  if (typeof id !== 'string' || !id) return [];
  const known = typeof contextLength === 'number' && Number.isInteger(contextLength) && contextLength > 0;
  return [{ id, ...(known ? { contextLength } : {}) }];
}

/** The models an OpenAI-compatible server lists at `GET {baseUrl}/models`. */
export async function discoverLocalModels(
  baseUrl: string,
  fetchFn: typeof fetch,
  options: { apiKey?: string; timeoutMs?: number } = {},
): Promise<LocalModel[]> {
  const url = `${baseUrl}/models`;
  let body: unknown;
  try {
    const response = await fetchFn(url, {
      headers: { accept: 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      signal: AbortSignal.timeout(options.timeoutMs ?? DISCOVERY_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = await response.json();
  } catch (error) {
    throw new CatalogError(`cannot list the models of the local server at ${url}: ${(error as Error).message}`);
  }
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new CatalogError(`the local server at ${url} did not answer with an OpenAI model list ({"data": [...]})`);
  return data.flatMap(toLocalModels);
}

/**
 * Asks every local server the environment enables for its models, in
 * parallel; the answer is buildCatalog's `localModels`. A config file that
 * declares the catalog leaves nothing to discover.
 */
export async function discoverLocalServers(
  inputs: Omit<CatalogInputs, 'localModels'>,
  fetchFn: typeof fetch,
): Promise<Record<string, LocalModel[]>> {
  const servers = declaresCatalog(inputs.config) ? [] : localServers(inputs.env, inputs.knownKinds);
  const found = await Promise.all(
    servers.map(async (s) => [s.id, await discoverLocalModels(s.baseUrl, fetchFn, s.apiKey ? { apiKey: s.apiKey } : {})] as const),
  );
  return Object.fromEntries(found);
}
