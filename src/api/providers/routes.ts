import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Catalog } from '../../catalog/types.js';
import type { EndpointHealthView } from '../models/endpoints-record.js';
import { providerRecords } from './provider-record.js';

export interface ProvidersRoutesOptions {
  catalog: Catalog;
  requireKey: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  health?: EndpointHealthView;
  /** Slugs of the providers the caller reaches through its own credentials (BYOK), listed after the catalog's. */
  extraProviders?: (request: FastifyRequest) => Promise<readonly string[]>;
}

/** GET /providers: the providers this gateway serves, with each one's health as this instance's routing sees it. */
export function providersRoutes({ catalog, requireKey, health, extraProviders }: ProvidersRoutesOptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const models = catalog.listModels();
    app.get('/providers', { onRequest: requireKey }, async (request) => ({
      data: providerRecords(catalog.providers.values(), models, health, extraProviders ? await extraProviders(request) : []),
    }));
  };
}
