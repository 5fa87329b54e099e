import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Catalog, Model } from '../../catalog/types.js';
import { Errors } from '../../http/errors.js';
import { type EndpointHealthView, providerOf, toEndpointRecord, toEndpointsRecord } from './endpoints-record.js';
import { type EndpointAllowed, modelsForKey } from './key-endpoint-filter.js';
import { toModelRecord } from './model-record.js';
import { outputsAny, readOutputModalities } from './output-modalities.js';
import { routerModelRecords } from './router-model-records.js';
import { ListModelsQuery, ModelEndpointsParams, ModelsCountQuery } from './schemas.js';

const DEFAULT_PAGE_SIZE = 500;

/** One page of a models list (GET /models, GET /embeddings/models); without offset and limit the whole list, as the reference says. */
export function modelsPage<T>(listing: readonly T[], { offset, limit }: { offset?: number | null; limit?: number }, path: string) {
  const paged = offset != null || limit !== undefined;
  const start = offset ?? 0;
  const size = limit ?? DEFAULT_PAGE_SIZE;
  const end = paged ? start + size : listing.length;
  return {
    object: 'list' as const,
    data: listing.slice(start, end),
    total_count: listing.length,
    links: { next: end < listing.length ? `${path}?offset=${end}&limit=${size}` : null },
  };
}

export interface ModelsRoutesOptions {
  catalog: Catalog;
  /**
   * Authentication hook (Services.auth.requireKey). The reference document's
   * global bearer security covers these operations; without a hook they are public.
   */
  requireKey?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** The routing's endpoint health, for each endpoint's status, uptime, latency and throughput; without it they are unknown. */
  health?: EndpointHealthView;
  /** The endpoints the request's key may be routed to (GET /models/user); without it, every endpoint. */
  endpointsOfKey?: (request: FastifyRequest) => Promise<EndpointAllowed>;
}

export function modelsRoutes({ catalog, requireKey, health, endpointsOfKey }: ModelsRoutesOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const modelsPath = `${app.prefix}/models`;
    const recordsOf = (models: readonly Model[]) => [
      ...models.map((model) => toModelRecord(model, modelsPath)),
      ...routerModelRecords(models, modelsPath),
    ];
    // The catalog is fixed for the life of the process: build the listing once.
    const models = catalog.listModels();
    const listing = recordsOf(models);
    const routers = listing.slice(models.length);
    const auth = requireKey ? { onRequest: requireKey } : {};

    app.get('/models', { ...auth, schema: { querystring: ListModelsQuery } }, async (request) =>
      modelsPage(listing, request.query, modelsPath),
    );

    app.get('/models/count', { ...auth, schema: { querystring: ModelsCountQuery } }, async (request) => {
      const wanted = readOutputModalities(request.query.output_modalities);
      return { data: { count: listing.filter((m) => outputsAny(m.architecture.output_modalities, wanted)).length } };
    });

    // What a request of this key could be routed to: its models, priced and limited by the endpoints it may use.
    app.get('/models/user', { ...auth, schema: { querystring: ListModelsQuery } }, async (request) => {
      const mine = endpointsOfKey ? modelsForKey(models, await endpointsOfKey(request)) : models;
      return modelsPage(recordsOf(mine), request.query, `${modelsPath}/user`);
    });

    app.get('/model/:author/:slug', { ...auth, schema: { params: ModelEndpointsParams } }, async (request) => {
      const id = `${request.params.author}/${request.params.slug}`;
      const model = listing.find((m) => m.id === id);
      if (!model) throw Errors.notFound('Model');
      return { data: model };
    });

    // Zero data retention is a catalog fact per endpoint (a provider's `zdr` marks all of its endpoints, catalog/from-config.ts).
    app.get('/endpoints/zdr', auth, async () => ({
      data: models.flatMap((model) =>
        model.endpoints
          .filter((endpoint) => endpoint.zdr === true)
          .map((endpoint) => toEndpointRecord(model, endpoint, providerOf(catalog.providers, model, endpoint), health)),
      ),
    }));

    app.get('/models/:author/:slug/endpoints', { ...auth, schema: { params: ModelEndpointsParams } }, async (request) => {
      const id = `${request.params.author}/${request.params.slug}`;
      const model = catalog.getModel(id);
      if (model) return { data: toEndpointsRecord(model, catalog.providers, health) };
      // A router has no endpoint of its own: it serves through those of the models it chooses.
      const router = routers.find((r) => r.id === id);
      if (!router) throw Errors.notFound('Model');
      const { name, created, description, architecture } = router;
      return { data: { id, name, created, description, architecture, endpoints: [] } };
    });
  };
}
