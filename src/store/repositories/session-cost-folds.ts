import { type Kysely, sql } from 'kysely';
import { type Reach, reachClause } from '../reach.js';
import type { Database, SessionCostDailyTable, SessionUsageTable } from '../schema.js';

/** The organizations with session_usage rows, each found through the primary key from the one before it. */
export async function organizationsWithSessions(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    with recursive orgs(id) as (
      select min(organization_id) from session_usage
      union all
      select (select min(s.organization_id) from session_usage s where s.organization_id > orgs.id) from orgs where orgs.id is not null
    )
    select id from orgs where id is not null
  `.execute(db);
  return rows.map((row) => row.id);
}

/** How many session_usage rows of the organization have each last day of [start, end] (the index by organization and day only). */
export async function sessionPartsByDay(db: Kysely<Database>, organizationId: string, start: string, end: string) {
  const rows = await db
    .selectFrom('session_usage')
    .select('last_day')
    .select((eb) => eb.fn.countAll<number | string>().as('parts'))
    .where('organization_id', '=', organizationId)
    .where('last_day', '>=', start)
    .where('last_day', '<=', end)
    .groupBy('last_day')
    .execute();
  return new Map(rows.map((row) => [row.last_day, Number(row.parts)]));
}

export interface FoldState {
  parts: number;
  folded_at: string;
}

export async function sessionFoldStates(db: Kysely<Database>, organizationId: string, start: string, end: string) {
  const rows = await db
    .selectFrom('session_cost_folds')
    .select(['day', 'parts', 'folded_at'])
    .where('organization_id', '=', organizationId)
    .where('day', '>=', start)
    .where('day', '<=', end)
    .execute();
  return new Map<string, FoldState>(rows.map((row) => [row.day, { parts: Number(row.parts), folded_at: row.folded_at }]));
}

export type SessionPart = Pick<SessionUsageTable, 'workspace_id' | 'app' | 'app_name' | 'model' | 'turns' | 'cost'>;
export type SessionCostRow = Omit<SessionCostDailyTable, 'organization_id' | 'day'>;

/**
 * Folds one organization's day again: its session_usage rows of that last
 * day are read, and session_cost_daily's rows of the day replaced by what
 * `fold` makes of them, with the day's state, in one transaction. The state
 * row is written before the replacement, so that two instances folding the
 * same day take turns on it (PostgreSQL); SQLite writes one at a time.
 */
export function refoldSessionDay(
  db: Kysely<Database>,
  organizationId: string,
  day: string,
  now: Date,
  fold: (parts: readonly SessionPart[]) => SessionCostRow[],
): Promise<void> {
  return db.transaction().execute(async (trx) => {
    const parts = await trx
      .selectFrom('session_usage')
      .select(['workspace_id', 'app', 'app_name', 'model', 'turns', 'cost'])
      .where('organization_id', '=', organizationId)
      .where('last_day', '=', day)
      .execute();
    const state = { organization_id: organizationId, day, parts: parts.length, folded_at: now.toISOString() };
    await trx
      .insertInto('session_cost_folds')
      .values(state)
      .onConflict((conflict) =>
        conflict.columns(['organization_id', 'day']).doUpdateSet({ parts: state.parts, folded_at: state.folded_at }),
      )
      .execute();
    await trx.deleteFrom('session_cost_daily').where('organization_id', '=', organizationId).where('day', '=', day).execute();
    const rows = fold(parts.map((part) => ({ ...part, turns: Number(part.turns), cost: Number(part.cost) })));
    for (let i = 0; i < rows.length; i += 100)
      await trx
        .insertInto('session_cost_daily')
        .values(rows.slice(i, i + 100).map((row) => ({ organization_id: organizationId, day, ...row })))
        .execute();
  });
}

/** Forgets an organization's folds of the days before `day` (through the primary keys). */
export async function pruneSessionCosts(db: Kysely<Database>, organizationId: string, day: string): Promise<void> {
  for (const table of ['session_cost_daily', 'session_cost_folds'] as const)
    await db.deleteFrom(table).where('organization_id', '=', organizationId).where('day', '<', day).execute();
}

/** The organization's daily folds of [start, end]: what its window is merged from. */
export function dailySessionCosts(db: Kysely<Database>, organizationId: string, start: string, end: string): Promise<SessionCostRow[]> {
  return db
    .selectFrom('session_cost_daily')
    .select(['workspace_id', 'app', 'model', 'turn_range', 'app_name', 'sessions', 'costs'])
    .where('organization_id', '=', organizationId)
    .where('day', '>=', start)
    .where('day', '<=', end)
    .execute();
}

/** The last day of the window the organization's session_cost_window rows merge, if any. */
export async function sessionWindowEnd(db: Kysely<Database>, organizationId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('session_cost_window')
    .select('window_end')
    .where('organization_id', '=', organizationId)
    .limit(1)
    .executeTakeFirst();
  return row?.window_end;
}

/** Replaces the organization's window rows with `rows`, merged as of the window ending on `end`, in one transaction. */
export function replaceSessionCostWindow(db: Kysely<Database>, organizationId: string, end: string, rows: readonly SessionCostRow[]) {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('session_cost_window').where('organization_id', '=', organizationId).execute();
    for (let i = 0; i < rows.length; i += 100)
      await trx
        .insertInto('session_cost_window')
        .values(rows.slice(i, i + 100).map((row) => ({ organization_id: organizationId, window_end: end, ...row })))
        .execute();
  });
}

type SessionCostFilter = { app?: string | undefined; model?: string | undefined; turnRange?: string | undefined };

/**
 * The session costs of the window ending on `end` in the reach, with the filters: the merged window's rows when the
 * fold has merged that window, else the daily folds of [start, end] (a fold has not run since the day turned).
 */
export async function sessionCostsOfWindow(
  db: Kysely<Database>,
  reach: Reach,
  window: { start: string; end: string },
  filter: SessionCostFilter,
): Promise<Pick<SessionCostRow, 'app' | 'app_name' | 'model' | 'turn_range' | 'costs'>[]> {
  const merged = (await sessionWindowEnd(db, reach.organizationId)) === window.end;
  // The daily table has every column the query names (the window's `window_end` is only in `days`, as SQL), so it is
  // typed as the window table: one query for both, `days` the part that differs.
  const days = merged ? sql<boolean>`window_end = ${window.end}` : sql<boolean>`day >= ${window.start} and day <= ${window.end}`;
  let query = db
    .selectFrom(merged ? 'session_cost_window' : ('session_cost_daily' as 'session_cost_window'))
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where(days);
  if (filter.app !== undefined) query = query.where('app', '=', filter.app);
  if (filter.model !== undefined) query = query.where('model', '=', filter.model);
  if (filter.turnRange !== undefined) query = query.where('turn_range', '=', filter.turnRange);
  return query.select(['app', 'app_name', 'model', 'turn_range', 'costs']).execute();
}
