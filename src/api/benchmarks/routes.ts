import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { benchmarkItems, type Measured, outcomeKey } from '../../benchmarks/benchmark-items.js';
import type { Catalog } from '../../catalog/types.js';
import { callerKey } from '../../http/authenticate.js';
import { endpointKey } from '../../routing/plan-attempts.js';
import type { Services } from '../../services.js';
import { type EndpointOutcomes, outcomesFromHour, outcomesSince } from '../../store/repositories/endpoint-outcomes.js';
import { managementReach } from '../../workspaces/management-reach.js';
import type { EndpointHealthView } from '../models/endpoints-record.js';
import { BenchmarksQuery } from './schemas.js';

const MINUTE_MS = 60_000;
const byEndpoint = (rows: readonly EndpointOutcomes[]) => new Map(rows.map((row) => [outcomeKey(row.model, row.provider_name), row]));

interface BenchmarksDependencies extends Pick<Services, 'db' | 'clock'> {
  catalog: Catalog;
  requireKey: Services['auth']['requireKey'];
  health: Pick<EndpointHealthView, 'recentFigures'>;
}

/**
 * GET /benchmarks (docs/datasets.md): the catalog's scores that the routers
 * rank by, and beside them what this gateway measured of each endpoint:
 * latency, first-token time and throughput from the routing statistics
 * (this instance's requests of the last 30 minutes), uptime and error rate from the ledger of
 * the caller's reach over the reference's windows (5 and 30 minutes from the
 * ledger's rows, a day from the hourly rollups).
 */
export function benchmarksRoutes({ db, clock, catalog, requireKey, health }: BenchmarksDependencies): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/benchmarks', { onRequest: requireKey, schema: { querystring: BenchmarksQuery } }, async (request) => {
      const query = request.query;
      const now = clock();
      const asOf = now.toISOString();
      const ours = (query.source ?? 'openrouter') === 'openrouter' && (query.benchmark_type ?? 'gpqa_diamond') === 'gpqa_diamond';
      let data: ReturnType<typeof benchmarkItems> = [];
      if (ours) {
        const reach = managementReach(callerKey(request));
        const since = (minutes: number) => new Date(now.getTime() - minutes * MINUTE_MS).toISOString();
        const [five, thirty, day] = await Promise.all([
          outcomesSince(db, reach, since(5)),
          outcomesSince(db, reach, since(30)),
          outcomesFromHour(db, reach, since(24 * 60).slice(0, 13)),
        ]);
        const measured: Measured = {
          figures: (model, provider) => health.recentFigures(endpointKey(model, provider), 30 * MINUTE_MS),
          outcomes: { '5m': byEndpoint(five), '30m': byEndpoint(thirty), '1d': byEndpoint(day) },
        };
        data = benchmarkItems(catalog.listModels(), measured, query.task_type, asOf);
        if (query.max_results !== undefined) data = data.slice(0, query.max_results);
      }
      return {
        data,
        meta: {
          as_of: asOf,
          version: 'v1' as const,
          source: query.source ?? null,
          source_url: null,
          citation: null,
          model_count: new Set(data.map((item) => item.model_permaslug)).size,
          task_type: query.task_type ?? null,
        },
      };
    });
  };
}
