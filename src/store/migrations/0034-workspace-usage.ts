import { type Kysely, sql } from 'kysely';
import type { Engine } from '../database.js';
import { MONEY, TEXT } from './column-types.js';

/**
 * What each workspace spent, in all and in its current day, week and month
 * (the counters an API key keeps, same columns), kept with each ledger write:
 * what its budgets are checked against. A key's counters alone would not do:
 * a deleted key's spend stays the workspace's, and a key moved to another
 * workspace takes its counters along. It starts from the ledger's rows
 * written before, their periods counted from now.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  let table = db.schema.createTable('workspace_usage').addColumn('workspace_id', TEXT, (c) => c.primaryKey());
  for (const name of [
    'usage',
    'usage_daily',
    'usage_weekly',
    'usage_monthly',
    'byok_usage',
    'byok_usage_daily',
    'byok_usage_weekly',
    'byok_usage_monthly',
  ])
    table = table.addColumn(name, MONEY, (c) => c.notNull().defaultTo(0));
  for (const name of ['usage_daily_period', 'usage_weekly_period', 'usage_monthly_period'])
    table = table.addColumn(name, TEXT, (c) => c.notNull().defaultTo(''));
  await table.execute();

  // The periods as accounts/usage-periods.ts names them (store/ imports no domain folder): UTC day, week from Monday, month.
  const now = new Date();
  const daily = now.toISOString().slice(0, 10);
  const weekly = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7)))
    .toISOString()
    .slice(0, 10);
  const monthly = daily.slice(0, 7);
  const since = (start: string) => sql`sum(case when created_at >= ${start} then coalesce(total_cost, 0) else 0 end)`;
  await sql`
    insert into workspace_usage
      (workspace_id, usage, usage_daily, usage_daily_period, usage_weekly, usage_weekly_period, usage_monthly, usage_monthly_period)
    select workspace_id, sum(coalesce(total_cost, 0)), ${since(daily)}, ${daily}, ${since(weekly)}, ${weekly}, ${since(`${monthly}-01`)}, ${monthly}
    from generations group by workspace_id having sum(coalesce(total_cost, 0)) <> 0
  `.execute(db);
}
