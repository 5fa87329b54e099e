import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Catalog } from '../../catalog/types.js';
import { priorWindow, rankApps } from '../../datasets/app-rankings.js';
import { addDays, dayWindow, windowMeta } from '../../datasets/date-window.js';
import { rankModels } from '../../datasets/rankings-daily.js';
import { SESSION_WINDOW_DAYS, sessionCostCells, sessionCostItems } from '../../datasets/session-cost.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { appSums, modelDays } from '../../store/repositories/datasets.js';
import { sessionCostsOfWindow } from '../../store/repositories/session-cost-folds.js';
import { managementReach } from '../../workspaces/management-reach.js';
import { AppRankingsQuery, type MODALITIES, RankingsDailyQuery, SessionCostQuery } from './schemas.js';

/** A reference filter whose data this gateway does not keep: refused by name rather than answered with a made-up slice. */
const notKept = (field: string, what: string) => Errors.invalidRequest(`${field} is not available on this gateway: ${what}`);

/** Whether a model belongs to a modality surface of rankings-daily (by the catalog's architecture; tool_calling by the row). */
function modalityFilter(catalog: Catalog, modality: (typeof MODALITIES)[number] | undefined) {
  if (modality === undefined) return () => true;
  if (modality === 'tool_calling') return (row: { toolCalls: number }) => row.toolCalls > 0;
  const [side, wanted] =
    modality === 'text'
      ? (['output_modalities', 'text'] as const)
      : modality === 'image_output'
        ? (['output_modalities', 'image'] as const)
        : (['input_modalities', modality] as const);
  return (row: { model: string }) => catalog.getModel(row.model)?.architecture[side].includes(wanted) ?? false;
}

/**
 * The datasets (docs/datasets.md): the reference's public usage datasets,
 * made of this gateway's own traffic, for any key, scoped to its
 * organization (or its workspace, for a workspace's management key), read
 * from the rollups of migration 0041 (session-cost: of their daily folds,
 * migration 0043).
 */
export function datasetsRoutes({
  db,
  clock,
  auth,
  catalog,
}: Pick<Services, 'db' | 'clock' | 'auth' | 'catalog'>): FastifyPluginAsyncTypebox {
  return async (app) => {
    const onRequest = auth.requireKey;

    app.get('/datasets/app-rankings', { onRequest, schema: { querystring: AppRankingsQuery } }, async (request) => {
      const query = request.query;
      if (query.category !== undefined) throw notKept('category', 'apps carry no marketplace category here');
      if (query.subcategory !== undefined) throw notKept('subcategory', 'apps carry no marketplace category here');
      const now = clock();
      const window = dayWindow(query, now);
      const reach = managementReach(callerKey(request));
      const trending = query.sort === 'trending';
      const prior = trending ? priorWindow(window) : undefined;
      const [sums, priorSums] = await Promise.all([
        appSums(db, reach, window.start, window.end),
        prior ? appSums(db, reach, prior.start, prior.end) : undefined,
      ]);
      const data = rankApps(sums, priorSums, { offset: query.offset ?? 0, limit: query.limit ?? 50 });
      return { data, meta: windowMeta(window, now) };
    });

    app.get('/datasets/rankings-daily', { onRequest, schema: { querystring: RankingsDailyQuery } }, async (request) => {
      const query = request.query;
      if (query.category !== undefined) throw notKept('category', 'requests are not classified by use case here');
      if (query.language_type !== undefined) throw notKept('language_type', 'requests are not classified by language here');
      if (query.context_bucket !== undefined) throw notKept('context_bucket', 'the rollups keep no context length');
      const now = clock();
      const window = dayWindow(query, now);
      const rows = await modelDays(db, managementReach(callerKey(request)), window.start, window.end);
      const data = rankModels(rows, query.period ?? 'day', modalityFilter(catalog, query.modality));
      return { data, meta: windowMeta(window, now) };
    });

    app.get('/datasets/session-cost', { onRequest, schema: { querystring: SessionCostQuery } }, async (request) => {
      const query = request.query;
      const now = clock();
      const end = addDays(now.toISOString().slice(0, 10), -1);
      const window = { start: addDays(end, 1 - SESSION_WINDOW_DAYS), end };
      const rows = await sessionCostsOfWindow(db, managementReach(callerKey(request)), window, {
        app: query.app_slug,
        model: query.model,
        turnRange: query.turn_range,
      });
      return {
        data: sessionCostItems(sessionCostCells(rows), { offset: query.offset ?? 0, limit: query.limit ?? 100 }),
        meta: { as_of: now.toISOString(), version: 'v1' as const, window_days: SESSION_WINDOW_DAYS, window_end_date: end },
      };
    });
  };
}
