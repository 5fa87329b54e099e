import type { UpstreamTarget } from '../protocol/upstream.js';
import { CatalogError } from './catalog-error.js';
import type { Catalog, CatalogContents, Endpoint, Model } from './types.js';

/** Lookup structures over a catalog's contents; the contents are not changed. */
export function createCatalog({ providers, models }: CatalogContents): Catalog {
  const providersById = new Map(providers.map((p) => [p.id, p]));
  const modelsById = new Map(models.map((m) => [m.id, m]));

  return {
    providers: providersById,
    getModel: (id) => modelsById.get(id),
    listModels: () => models,
    targetFor(model: Model, endpoint: Endpoint): UpstreamTarget {
      const provider = providersById.get(endpoint.provider);
      if (!provider) throw new CatalogError(`model "${model.id}" names provider "${endpoint.provider}", which is not in the catalog`);
      return {
        providerId: provider.id,
        kind: provider.kind,
        baseUrl: provider.baseUrl,
        ...(provider.apiKey !== undefined ? { apiKey: provider.apiKey } : {}),
        ...(provider.headers !== undefined ? { headers: { ...provider.headers } } : {}),
        upstreamModel: endpoint.upstreamModel,
        ...(endpoint.supportedParameters !== undefined ? { supportedParameters: endpoint.supportedParameters } : {}),
        ...(endpoint.supportedServiceTiers !== undefined ? { supportedServiceTiers: endpoint.supportedServiceTiers } : {}),
        ...(endpoint.maxCompletionTokens !== undefined ? { maxCompletionTokens: endpoint.maxCompletionTokens } : {}),
        timeoutMs: provider.timeoutMs,
      };
    },
  };
}
