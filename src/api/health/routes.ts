import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendError } from '../../http/error-envelope.js';
import { Errors } from '../../http/errors.js';
import { ErrorEnvelope } from '../../http/schema-helpers.js';
import type { Readiness } from './readiness.js';

const Checks = Type.Object(
  {
    database: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('unreachable')])),
    migrations: Type.Optional(Type.Union([Type.Literal('current'), Type.Literal('pending'), Type.Literal('unknown')])),
    redis: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('unavailable')])),
    ledger_outbox_rows: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

/**
 * Probes for load balancers and orchestrators, outside the API's prefix and
 * without a key. GET /health is liveness: the process serves requests; it
 * reads nothing. GET /ready is readiness (200, or 503 in the envelope with
 * the reason and the checks in its metadata): see readiness.ts.
 */
export function healthRoutes(readiness: () => Promise<Readiness>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          summary: 'Liveness: the process serves requests',
          tags: ['health'],
          security: [],
          response: { 200: Type.Object({ status: Type.Literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/ready',
      {
        schema: {
          summary: 'Readiness: the database answers with its migrations current, and the gateway is neither starting nor draining',
          tags: ['health'],
          security: [],
          response: { 200: Type.Object({ status: Type.Literal('ready'), checks: Checks }), 503: ErrorEnvelope },
        },
      },
      async (_request, reply) => {
        const { ready, reason, phase, checks } = await readiness();
        if (ready) return { status: 'ready' as const, checks };
        // Sent, not thrown: a probe that finds the gateway not ready is no failure of the gateway to log.
        sendError(reply, Errors.notReady({ phase, checks }, reason ?? 'unknown'));
        return reply;
      },
    );
  };
}
