import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import type { Authenticator } from '../../http/authenticate.js';
import { ErrorEnvelope } from '../../http/schema-helpers.js';

/** The security scheme of every key-authenticated operation. */
const BEARER_SCHEME = 'bearer';
export const MANAGEMENT_KEY_REQUIRED = 'Management key required.';

export interface OpenApiDocumentOptions {
  /** The package's version: the document's `info.version`. */
  version: string;
  /** The prefix of the API (`/api/v1`): its operations need a bearer key unless their schema says `security: []`. */
  apiPrefix: string;
  /** Tells which routes take a management key (their `onRequest` runs its check). */
  auth: Pick<Authenticator, 'requireManagementKey'>;
}

type Operation = { responses?: Record<string, unknown> };
type Document = { paths?: Record<string, Record<string, Operation> | undefined> };

/** The header every error answer names its catalogue entry in (docs/errors.md). */
const ERROR_CODE = {
  description: "The error's stable code name in the catalogue (docs/errors.md)",
  schema: { type: 'string', pattern: '^GW_ERR_[A-Z0-9]+(_[A-Z0-9]+)*$' },
};

const errorResponse = (description: string) => ({
  description,
  headers: { 'X-Error-Code': ERROR_CODE },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** What @fastify/swagger says of a route that declares no response schema. */
const isUndescribed = (responses: Record<string, unknown> | undefined) =>
  responses !== undefined &&
  Object.keys(responses).length === 1 &&
  (responses['200'] as { description?: string } | undefined)?.description === 'Default Response';

/**
 * @fastify/swagger's settings for the document at `GET /api/v1/openapi.json`:
 * OpenAPI 3.1 built from the routes' own schemas (the ones requests are
 * validated with), grouped by their first path segment, with the bearer key
 * scheme and the error envelope every failure answers with.
 */
export function openApiDocumentOptions({ version, apiPrefix, auth }: OpenApiDocumentOptions): FastifyDynamicSwaggerOptions {
  const requiresManagementKey = (route: RouteOptions) => [route.onRequest].flat().includes(auth.requireManagementKey);
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Model Gateway API',
        version,
        description:
          'One API in front of many model providers. Every error answers with the same envelope: ' +
          '`{"error": {"code": <status>, "message": "…", "metadata": {…}}}`, the message naming the field and the rule.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      components: {
        securitySchemes: {
          [BEARER_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key of the gateway as a bearer token in the Authorization header',
          },
        },
        schemas: { Error: ErrorEnvelope },
      },
    },
    transform: ({ schema, url, route }) => {
      const inApi = url === apiPrefix || url.startsWith(`${apiPrefix}/`);
      const tag = (inApi ? url.slice(apiPrefix.length) : url).split('/').find((segment) => segment.length > 0) ?? 'root';
      const management = requiresManagementKey(route);
      return {
        url,
        schema: {
          ...schema,
          tags: schema?.tags ?? [tag],
          ...(schema?.security === undefined && inApi ? { security: [{ [BEARER_SCHEME]: [] }] } : {}),
          ...(management ? { description: [MANAGEMENT_KEY_REQUIRED, schema?.description].filter(Boolean).join(' ') } : {}),
        },
      };
    },
    transformObject: (documentObject) => {
      const document = (documentObject as { openapiObject: Document }).openapiObject;
      for (const operations of Object.values(document.paths ?? {})) {
        for (const operation of Object.values(operations ?? {})) {
          // Success bodies are not declared as schemas yet: said as such, rather than as a 200 that some routes (201, 202) never answer.
          // A route that answers errors in another protocol's shape (POST /messages, Anthropic's) declares its own.
          const { '4XX': refused, '5XX': failed, ...declared } = operation.responses ?? {};
          const success = Object.keys(declared).length === 0 || isUndescribed(declared) ? { '2XX': { description: 'Success' } } : declared;
          operation.responses = {
            ...success,
            '4XX': refused ?? errorResponse('Refused: the error envelope'),
            '5XX': failed ?? errorResponse('Failed: the error envelope'),
          };
        }
      }
      return document;
    },
  };
}
