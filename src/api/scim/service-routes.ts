import type { FastifyPluginAsync } from 'fastify';
import { ERROR_CODE_HEADER, errorHandler } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { installJsonBodyParser } from '../../http/json-body.js';
import { resourceTypes, serviceProviderConfig } from '../../scim/discovery.js';
import { errorResource, listResponse, SCIM_MEDIA_TYPE } from '../../scim/resources.js';
import type { Services } from '../../services.js';
import { groupRoutes } from './group-routes.js';
import { provisioningDeps } from './provisioning-deps.js';
import { scimAuthenticator } from './scim-auth.js';
import { baseUrl, MAX_RESULTS, SCIM_ROUTE } from './scim-request.js';
import { userRoutes } from './user-routes.js';

/**
 * The SCIM 2.0 service provider (RFC 7643/7644), registered under /scim/v2: identity providers
 * (Okta, Microsoft Entra ID) provision users and groups with the organization's SCIM token. Every
 * answer, errors and unknown paths included, is application/scim+json in SCIM's shapes, not the
 * gateway's envelope: SCIM clients read nothing else.
 */
export function scimServiceRoutes(services: Services, options: { maxJsonDepth: number }): FastifyPluginAsync {
  const deps = provisioningDeps(services);
  const auth = scimAuthenticator(services.db);
  const organizationOf = auth.organizationOf;
  return async (app) => {
    installJsonBodyParser(app, options.maxJsonDepth, SCIM_MEDIA_TYPE);
    app.setErrorHandler(errorHandler(app.initialConfig.bodyLimit ?? 0, errorResource));
    app.setNotFoundHandler((request, reply) => {
      const error = Errors.routeNotFound(request.method, request.url.split('?')[0] ?? request.url);
      void reply.code(404).type(SCIM_MEDIA_TYPE).header(ERROR_CODE_HEADER, error.code).send(errorResource(error));
    });
    app.addHook('onSend', async (_request, reply, payload) => {
      void reply.type(SCIM_MEDIA_TYPE);
      return payload;
    });
    app.addHook('onRequest', auth.requireToken);

    userRoutes(app, deps, organizationOf);
    groupRoutes(app, deps, organizationOf);
    app.get('/ServiceProviderConfig', SCIM_ROUTE, async (request) =>
      serviceProviderConfig(`${baseUrl(request)}/ServiceProviderConfig`, MAX_RESULTS),
    );
    app.get('/ResourceTypes', SCIM_ROUTE, async (request) => {
      const types = resourceTypes(baseUrl(request));
      return listResponse(types, types.length, 1);
    });
  };
}
