import type { Kysely } from 'kysely';
import { COUNT, TEXT } from './column-types.js';

/**
 * What GET /datasets/session-cost reads, so that it sorts no session per
 * request (datasets/session-cost-folds.ts):
 *
 * - session_cost_daily: per organization, day (the sessions' last day),
 *   workspace, app, model and turn range, the sessions' count and a sketch of
 *   their costs (datasets/cost-sketch.ts), from session_usage;
 * - session_cost_folds: per organization and day, how many session_usage
 *   rows that day had when it was folded, and when: a day whose count moved
 *   since (a session went on to a later day) or that was folded before its
 *   late rows could land is folded again.
 *
 * Both start empty: the first fold fills the window.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('session_cost_daily')
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('day', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('app', TEXT, (c) => c.notNull())
    .addColumn('model', TEXT, (c) => c.notNull())
    .addColumn('turn_range', TEXT, (c) => c.notNull())
    .addColumn('app_name', TEXT, (c) => c.notNull())
    .addColumn('sessions', COUNT, (c) => c.notNull())
    .addColumn('costs', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('session_cost_daily_pk', ['organization_id', 'day', 'workspace_id', 'app', 'model', 'turn_range'])
    .execute();
  await db.schema
    .createTable('session_cost_folds')
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('day', TEXT, (c) => c.notNull())
    .addColumn('parts', COUNT, (c) => c.notNull())
    .addColumn('folded_at', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('session_cost_folds_pk', ['organization_id', 'day'])
    .execute();
}
