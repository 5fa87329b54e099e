import type { Kysely } from 'kysely';
import { COUNT, TEXT } from './column-types.js';

/**
 * session_cost_window: the session-cost window's daily folds merged once, per
 * organization, workspace, app, model and turn range, as of the window that
 * ends on `window_end` (datasets/session-cost-folds.ts). GET
 * /datasets/session-cost reads these few rows instead of merging a month of
 * daily ones per request; rows of an older window are not read (the daily
 * folds are, until the next fold). It starts empty: the next fold fills it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('session_cost_window')
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('app', TEXT, (c) => c.notNull())
    .addColumn('model', TEXT, (c) => c.notNull())
    .addColumn('turn_range', TEXT, (c) => c.notNull())
    .addColumn('window_end', TEXT, (c) => c.notNull())
    .addColumn('app_name', TEXT, (c) => c.notNull())
    .addColumn('sessions', COUNT, (c) => c.notNull())
    .addColumn('costs', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('session_cost_window_pk', ['organization_id', 'workspace_id', 'app', 'model', 'turn_range'])
    .execute();
}
