import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CLASSIFICATION_DAYS } from '../../classifications/classification-pass.js';
import { taskShares } from '../../classifications/task-shares.js';
import { addDays } from '../../datasets/date-window.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { taskModelSums } from '../../store/repositories/task-classifications.js';
import { managementReach } from '../../workspaces/management-reach.js';

/** GET /classifications/task's query: the reference's `window` ('7d'), here any whole number of days. */
const TaskClassificationsQuery = Type.Object({
  window: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}d$' })),
});

/** The days a `window` covers, from 1 to the days kept. */
function windowDays(window: string): number {
  const days = Number(window.slice(0, -1));
  if (days < 1) throw Errors.invalidRequest(`window must be at least 1d, not ${window}`);
  if (days > CLASSIFICATION_DAYS)
    throw Errors.invalidRequest(`window ${window} is past the kept data: task classifications are kept ${CLASSIFICATION_DAYS} days`);
  return days;
}

/**
 * GET /classifications/task (docs/datasets.md): the share of the caller's
 * organization's (or workspace's) sampled requests per task of the
 * auto-router's classifier over the trailing `window` of completed UTC days,
 * read from task_usage_daily.
 */
export function classificationsRoutes({ db, clock, auth }: Pick<Services, 'db' | 'clock' | 'auth'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/classifications/task', { onRequest: auth.requireKey, schema: { querystring: TaskClassificationsQuery } }, async (request) => {
      const days = windowDays(request.query.window ?? '7d');
      const end = addDays(clock().toISOString().slice(0, 10), -1);
      const rows = await taskModelSums(db, managementReach(callerKey(request)), addDays(end, 1 - days), end);
      return { data: { as_of: end, window_days: days, ...taskShares(rows) } };
    });
  };
}
