import type { FastifyInstance } from 'fastify';
import { Errors } from '../../http/errors.js';
import { exposition } from './exposition.js';
import type { GatewayMetrics } from './gateway-metrics.js';
import { checkMetricsToken } from './metrics-token.js';

export const METRICS_PATH = '/metrics';

/** GET /metrics at the root, as /health is: Prometheus's text format, behind the metrics token when one is set. */
export function installMetricsRoute(app: FastifyInstance, metrics: GatewayMetrics, token: string | undefined): void {
  app.get(
    METRICS_PATH,
    {
      schema: {
        summary: 'Prometheus metrics (text exposition format)',
        description: 'Without a gateway key; when the METRICS_TOKEN setting is set, that token is required as a bearer token.',
        tags: ['metrics'],
        security: [],
      },
    },
    async (request, reply) => {
      if (token) {
        const check = checkMetricsToken(request.headers.authorization, token);
        if (check === 'missing') throw Errors.missingAuthentication();
        if (check === 'invalid') throw Errors.invalidMetricsToken();
      }
      const { contentType, body } = await exposition(metrics.registry);
      return reply.type(contentType).send(body);
    },
  );
}
