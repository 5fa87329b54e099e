import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Catalog } from '../../catalog/types.js';
import { Errors } from '../../http/errors.js';
import { type EndpointHealthView, toEndpointsRecord } from './endpoints-record.js';
import { toModelRecord } from './model-record.js';
import { routerModelRecords } from './router-model-records.js';
import { ListModelsQuery, ModelEndpointsParams } from './schemas.js';

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
  /** The routing's endpoint health, for each endpoint's status, latency and throughput; without it they are unknown. */
  health?: EndpointHealthView;
}

export function modelsRoutes({ catalog, requireKey, health }: ModelsRoutesOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const modelsPath = `${app.prefix}/models`;
    // The catalog is fixed for the life of the process: build the listing once.
    const models = catalog.listModels();
    const routers = routerModelRecords(models, modelsPath);
    const listing = [...models.map((model) => toModelRecord(model, modelsPath)), ...routers];
    const auth = requireKey ? { onRequest: requireKey } : {};

    app.get('/models', { ...auth, schema: { querystring: ListModelsQuery } }, async (request) =>
      modelsPage(listing, request.query, modelsPath),
    );

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
