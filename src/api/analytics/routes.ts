import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { analyticsMeta } from '../../analytics/analytics-catalog.js';
import { planAnalyticsQuery } from '../../analytics/plan-query.js';
import { runAnalyticsQuery } from '../../analytics/run-query.js';
import { callerKey } from '../../http/authenticate.js';
import type { Services } from '../../services.js';
import { managementReach } from '../../workspaces/management-reach.js';
import { AnalyticsQueryBody } from './schemas.js';

/**
 * GET /analytics/meta and POST /analytics/query (management keys, as the
 * reference): the organization's usage from the hourly rollups, by the
 * metrics and dimensions this gateway records (analytics/analytics-catalog.ts).
 */
export function analyticsRoutes({ db, clock, auth }: Pick<Services, 'db' | 'clock' | 'auth'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/analytics/meta', { onRequest: auth.requireManagementKey }, async () => ({ data: analyticsMeta() }));

    app.post('/analytics/query', { onRequest: auth.requireManagementKey, schema: { body: AnalyticsQueryBody } }, async (request) => {
      const plan = planAnalyticsQuery(request.body, clock());
      return { data: await runAnalyticsQuery(db, managementReach(callerKey(request)), plan) };
    });
  };
}
