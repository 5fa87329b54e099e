import type { Kysely } from 'kysely';
import { type Reach, reachClause } from '../reach.js';
import type { Database } from '../schema.js';

/** An app's sums over some days, under one of the names it stated (an app renamed has a row per name). */
export interface AppSums {
  app: string;
  app_name: string;
  /** The latest day of the name. */
  last_day: string;
  requests: number;
  tokens: number;
}

/** The apps' requests and tokens over [start, end] (UTC days, inclusive), from app_usage_daily. */
export async function appSums(db: Kysely<Database>, reach: Reach, start: string, end: string): Promise<AppSums[]> {
  const rows = await db
    .selectFrom('app_usage_daily')
    .select(['app', 'app_name'])
    .select((eb) => [
      eb.fn.max('day').as('last_day'),
      eb.fn.sum<number | string>('requests').as('requests'),
      eb.fn.sum<number | string>('tokens').as('tokens'),
    ])
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('day', '>=', start)
    .where('day', '<=', end)
    .where('app', '<>', '')
    .groupBy(['app', 'app_name'])
    .execute();
  return rows.map((row) => ({ ...row, requests: Number(row.requests), tokens: Number(row.tokens) }));
}

/** A model's tokens of one UTC day. */
export interface ModelDay {
  day: string;
  model: string;
  tokens: number;
  tool_call_requests: number;
}

export async function modelDays(db: Kysely<Database>, reach: Reach, start: string, end: string): Promise<ModelDay[]> {
  const rows = await db
    .selectFrom('app_usage_daily')
    .select(['day', 'model'])
    .select((eb) => [
      eb.fn.sum<number | string>('tokens').as('tokens'),
      eb.fn.sum<number | string>('tool_call_requests').as('tool_call_requests'),
    ])
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('day', '>=', start)
    .where('day', '<=', end)
    .groupBy(['day', 'model'])
    .execute();
  return rows.map((row) => ({ ...row, tokens: Number(row.tokens), tool_call_requests: Number(row.tool_call_requests) }));
}

export type TurnRange = '1-turn' | '2-9-turns' | '10-49-turns' | '50-plus-turns';

export interface SessionCostCell {
  app: string;
  app_name: string;
  model: string;
  turn_range: TurnRange;
  median: number;
}
