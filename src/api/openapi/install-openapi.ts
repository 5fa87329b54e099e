import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { pageSecurityHeaders } from '../console/serve-console.js';
import { type OpenApiDocumentOptions, openApiDocumentOptions } from './openapi-document.js';

/** Where the browsable reference is served; its pages and assets come from the package (no CDN: the gateway may run offline). */
export const DOCS_PREFIX = '/docs';

/**
 * The API described by itself: `GET {apiPrefix}/openapi.json` and the
 * reference page at /docs (Swagger UI), both without a key, as the reference
 * service serves its own document. Registered before any route, so that the
 * document lists every route registered after it.
 */
export async function installOpenApi(app: FastifyInstance, options: OpenApiDocumentOptions): Promise<void> {
  await app.register(swagger, openApiDocumentOptions(options));
  let document: string | undefined;
  app.get(
    `${options.apiPrefix}/openapi.json`,
    { schema: { summary: 'This document (OpenAPI 3.1)', tags: ['openapi'], security: [] } },
    // Built on first request, once every route is known; the routes do not change after.
    async (_request, reply) => reply.type('application/json; charset=utf-8').send((document ??= JSON.stringify(app.swagger()))),
  );
  // The reference page is on the console's origin: it is sent with the console's headers (its CSP, no framing).
  // Without the standalone layout's top bar, whose logo is an SVG with an inline style that CSP refuses.
  await app.register(async (scope) => {
    scope.addHook('onSend', pageSecurityHeaders);
    await scope.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      theme: { title: 'Model Gateway API' },
      uiConfig: { layout: 'BaseLayout' },
    });
  });
}
