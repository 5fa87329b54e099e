import { type Kysely, sql, type Transaction } from 'kysely';
import type { Engine } from '../database.js';
import type { Database } from '../schema.js';
import { USAGE_SUMS } from '../usage-sums.js';

const DAY_MS = 86_400_000;

/** The UTC day after `day` ('YYYY-MM-DD'). */
export const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);

/** The first day usage_daily does not hold whole yet ('YYYY-MM-DD'), or null when it holds none (migration 0031). */
export async function foldedBefore(db: Kysely<Database>): Promise<string | null> {
  const row = await db.selectFrom('usage_daily_folds').select('folded_before').where('id', '=', 1).executeTakeFirst();
  return row?.folded_before ?? null;
}

/**
 * The organizations with usage_hourly rows, each found through the primary
 * key (organization_id, hour, …) from the one before it, so that the whole
 * table is never read.
 */
async function organizationsWithUsage(trx: Transaction<Database>): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    with recursive orgs(id) as (
      select min(organization_id) from usage_hourly
      union all
      select (select min(h.organization_id) from usage_hourly h where h.organization_id > orgs.id) from orgs where orgs.id is not null
    )
    select id from orgs where id is not null
  `.execute(trx);
  return rows.map((row) => row.id);
}

/**
 * Folds the first day not folded yet into usage_daily, if it comes before
 * `before`: that day's rows of usage_daily are made again from its hours in
 * usage_hourly, and `folded_before` moves past it, in one transaction.
 * Returns the day folded, or undefined when there was none to fold.
 *
 * Instances that fold at once take turns on the state row (FOR UPDATE), and
 * the second finds the day folded. On PostgreSQL the fold holds usage_hourly
 * in SHARE mode: it waits for the ledger commits writing to it and holds
 * new ones until it ends, so that a commit adding to a day being folded
 * either is in the hours read or comes after, seeing the day folded
 * (accounting/usage-rollup.ts). SQLite runs one write transaction at a time.
 */
export function foldNextUsageDay(db: Kysely<Database>, engine: Engine, before: string): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const state = trx.selectFrom('usage_daily_folds').select('folded_before').where('id', '=', 1);
    const folded = (await (engine === 'postgres' ? state.forUpdate() : state).executeTakeFirst())?.folded_before ?? null;
    const day = folded ?? (await firstHour(trx))?.slice(0, 10);
    if (day === undefined) {
      // No usage at all yet: a day before `before` can only come as a late row, which adds to its day itself.
      await setFoldedBefore(trx, before);
      return undefined;
    }
    if (day >= before) return undefined;
    if (engine === 'postgres') await sql`lock table usage_hourly in share mode`.execute(trx);
    const next = dayAfter(day);
    for (const organization of await organizationsWithUsage(trx)) {
      await trx.deleteFrom('usage_daily').where('organization_id', '=', organization).where('day', '=', day).execute();
      await sql`
        insert into usage_daily (organization_id, day, workspace_id, api_key_hash, model, provider_name, ${sql.join(USAGE_SUMS.map((c) => sql.ref(c)))})
        select organization_id, cast(${day} as text), workspace_id, api_key_hash, model, provider_name,
          ${sql.join(USAGE_SUMS.map((c) => sql`sum(${sql.ref(c)})`))}
        from usage_hourly
        where organization_id = ${organization} and hour >= ${`${day}T00`} and hour < ${`${next}T00`}
        group by organization_id, workspace_id, api_key_hash, model, provider_name
      `.execute(trx);
    }
    await setFoldedBefore(trx, next);
    return day;
  });
}

async function firstHour(trx: Transaction<Database>): Promise<string | undefined> {
  const row = await trx.selectFrom('usage_hourly').select(sql<string | null>`min(hour)`.as('hour')).executeTakeFirst();
  return row?.hour ?? undefined;
}

async function setFoldedBefore(trx: Transaction<Database>, day: string): Promise<void> {
  await trx.updateTable('usage_daily_folds').set({ folded_before: day }).where('id', '=', 1).execute();
}
