import { type Kysely, sql } from 'kysely';
import { appIdentity } from '../app-identity.js';
import type { Engine } from '../database.js';
import { COUNT, MONEY, TEXT } from './column-types.js';

/**
 * What the datasets read (docs/datasets.md), kept with each ledger write as
 * usage_hourly is (accounting/dataset-rollup.ts), since usage_hourly has no
 * app nor session:
 *
 * - generations.app_title: the X-Title a request stated (its HTTP-Referer
 *   was kept already, as `origin`).
 * - app_usage_daily: one row per organization, UTC day, workspace, app
 *   (store/app-identity.ts; '' for a request that named none) and model,
 *   with its requests, tokens, and requests that ended in a tool call: the
 *   app rankings and the daily model rankings.
 * - session_usage: one row per organization, workspace, session_id, app and
 *   model, with its turns (served requests), cost and last day: the median
 *   cost per session, computed exactly from these rows.
 *
 * Both start from the ledger's rows written before.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.alterTable('generations').addColumn('app_title', TEXT).execute();

  const daily = db.schema
    .createTable('app_usage_daily')
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('day', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('app', TEXT, (c) => c.notNull())
    .addColumn('model', TEXT, (c) => c.notNull())
    .addColumn('app_name', TEXT, (c) => c.notNull())
    .addColumn('requests', COUNT, (c) => c.notNull())
    .addColumn('tokens', COUNT, (c) => c.notNull())
    .addColumn('tool_call_requests', COUNT, (c) => c.notNull())
    .addPrimaryKeyConstraint('app_usage_daily_pk', ['organization_id', 'day', 'workspace_id', 'app', 'model']);
  await (engine === 'sqlite' ? daily.modifyEnd(sql`without rowid`) : daily).execute();

  await db.schema
    .createTable('session_usage')
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('session_id', TEXT, (c) => c.notNull())
    .addColumn('app', TEXT, (c) => c.notNull())
    .addColumn('model', TEXT, (c) => c.notNull())
    .addColumn('app_name', TEXT, (c) => c.notNull())
    .addColumn('turns', COUNT, (c) => c.notNull())
    .addColumn('cost', MONEY, (c) => c.notNull())
    .addColumn('last_day', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('session_usage_pk', ['organization_id', 'workspace_id', 'session_id', 'app', 'model'])
    .execute();
  await db.schema.createIndex('session_usage_by_day').on('session_usage').columns(['organization_id', 'last_day']).execute();

  await backfillDays(db);
  await backfillSessions(db);
}

// The referer is grouped raw and read as an app here: one host's paths merge into one row.
async function backfillDays(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{
    organization_id: string;
    day: string;
    workspace_id: string;
    origin: string | null;
    model: string;
    requests: number | string;
    tokens: number | string;
    tool_call_requests: number | string;
  }>`
    select organization_id, substr(created_at, 1, 10) as day, workspace_id, origin, model, count(*) as requests,
      sum(tokens_prompt + tokens_completion) as tokens,
      sum(case when finish_reason = 'tool_calls' then 1 else 0 end) as tool_call_requests
    from generations group by organization_id, substr(created_at, 1, 10), workspace_id, origin, model
  `.execute(db);
  const merged = new Map<string, { key: unknown[]; app_name: string; sums: number[] }>();
  for (const row of rows) {
    const app = appIdentity(row.origin, null);
    const key = [row.organization_id, row.day, row.workspace_id, app?.slug ?? '', row.model];
    const id = key.join('\u0000');
    const sums = [Number(row.requests), Number(row.tokens), Number(row.tool_call_requests)];
    const had = merged.get(id);
    if (had) had.sums = had.sums.map((value, i) => value + sums[i]!);
    else merged.set(id, { key, app_name: app?.name ?? '', sums });
  }
  for (const { key, app_name, sums } of merged.values())
    await sql`insert into app_usage_daily (organization_id, day, workspace_id, app, model, app_name, requests, tokens, tool_call_requests)
      values (${sql.join([...key, app_name, ...sums])})`.execute(db);
}

async function backfillSessions(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{
    organization_id: string;
    workspace_id: string;
    session_id: string;
    origin: string | null;
    model: string;
    turns: number | string;
    cost: number | string;
    last_day: string;
  }>`
    select organization_id, workspace_id, session_id, origin, model,
      sum(case when status = 'success' then 1 else 0 end) as turns, sum(total_cost) as cost, max(substr(created_at, 1, 10)) as last_day
    from generations where session_id is not null group by organization_id, workspace_id, session_id, origin, model
  `.execute(db);
  const merged = new Map<string, { key: unknown[]; app_name: string; turns: number; cost: number; last_day: string }>();
  for (const row of rows) {
    const app = appIdentity(row.origin, null);
    const key = [row.organization_id, row.workspace_id, row.session_id, app?.slug ?? '', row.model];
    const id = key.join('\u0000');
    const had = merged.get(id);
    if (had) {
      had.turns += Number(row.turns);
      had.cost += Number(row.cost);
      if (row.last_day > had.last_day) had.last_day = row.last_day;
    } else merged.set(id, { key, app_name: app?.name ?? '', turns: Number(row.turns), cost: Number(row.cost), last_day: row.last_day });
  }
  for (const { key, app_name, turns, cost, last_day } of merged.values())
    await sql`insert into session_usage (organization_id, workspace_id, session_id, app, model, app_name, turns, cost, last_day)
      values (${sql.join([...key, app_name, turns, cost, last_day])})`.execute(db);
}
