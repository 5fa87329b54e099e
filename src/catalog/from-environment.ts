import { BUILTIN_PROVIDERS } from './builtin/index.js';
import { BUILTIN_SCORES } from './builtin/model-scores.js';
import type { BuiltinProvider } from './builtin/types.js';
import { DEFAULT_TIMEOUT_MS } from './defaults.js';
import { envBaseUrl, envValue } from './env.js';
import { inProcessCatalog } from './in-process.js';
import { type LocalModel, localModel, localServers } from './local-servers.js';
import type { CatalogContents, Endpoint, Model, Provider } from './types.js';

function enabledProvider(def: BuiltinProvider, env: NodeJS.ProcessEnv, knownKinds: readonly string[]): Provider | undefined {
  // A provider whose protocol no adapter speaks yet stays off even with a key; it joins once its kind is known.
  if (!knownKinds.includes(def.kind)) return undefined;
  const apiKey = envValue(env, def.apiKeyEnv)?.value;
  if (!apiKey) return undefined;
  const baseUrl = envBaseUrl(env, [def.baseUrlEnv]) ?? def.baseUrl;
  return { id: def.id, name: def.name, kind: def.kind, baseUrl, apiKey, timeoutMs: DEFAULT_TIMEOUT_MS, facts: def.facts };
}

/** Models several enabled providers serve become one model with an endpoint per provider. */
function mergeByModel(models: readonly Model[]): Model[] {
  const merged = new Map<string, Model>();
  for (const model of models) {
    const seen = merged.get(model.id);
    merged.set(model.id, seen ? { ...seen, endpoints: [...seen.endpoints, ...model.endpoints] } : model);
  }
  return [...merged.values()];
}

/**
 * The built-in table, narrowed to the providers whose key is in the
 * environment and whose kind an adapter speaks, plus local servers given by
 * base URL with the models they reported (`localModels`, by server id), plus
 * what the gateway serves in process (local/bm25).
 */
export function catalogFromEnvironment(
  env: NodeJS.ProcessEnv,
  knownKinds: readonly string[],
  localModels: Readonly<Record<string, readonly LocalModel[]>> = {},
): CatalogContents {
  const builtin = BUILTIN_PROVIDERS.flatMap((def) => {
    const provider = enabledProvider(def, env, knownKinds);
    if (!provider) return [];
    const models = def.offerings.map(({ model, ...offering }): Model => {
      const contextLength = offering.contextLength ?? model.contextLength;
      const endpoint: Endpoint = { provider: def.id, ...offering, ...(contextLength !== undefined ? { contextLength } : {}) };
      const scores = BUILTIN_SCORES.get(model.id);
      return { ...model, ...(scores ? { scores } : {}), endpoints: [endpoint] };
    });
    return [{ provider, models }];
  });
  const local = localServers(env, knownKinds).map((provider) => ({
    provider,
    models: (localModels[provider.id] ?? []).map((reported) => localModel(provider, reported)),
  }));
  const all = [...builtin, ...local, ...inProcessCatalog(knownKinds)];
  return { providers: all.map((p) => p.provider), models: mergeByModel(all.flatMap((p) => p.models)) };
}
