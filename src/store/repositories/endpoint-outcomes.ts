import { type Kysely, sql } from 'kysely';
import { type Reach, reachClause } from '../reach.js';
import type { Database } from '../schema.js';

/** What a model's endpoint (its provider) answered over a window. */
export interface EndpointOutcomes {
  model: string;
  provider_name: string;
  requests: number;
  errors: number;
  errors_4xx: number;
  errors_5xx: number;
  cost: number;
}

const numbers = (row: Record<string, unknown>) =>
  ({
    model: row.model,
    provider_name: row.provider_name,
    requests: Number(row.requests),
    errors: Number(row.errors),
    errors_4xx: Number(row.errors_4xx),
    errors_5xx: Number(row.errors_5xx),
    cost: Number(row.cost),
  }) as EndpointOutcomes;

/** The ledger's rows since `since` (an ISO time) by model and provider: for windows shorter than the rollups' hour (index by organization and time). */
export async function outcomesSince(db: Kysely<Database>, reach: Reach, since: string): Promise<EndpointOutcomes[]> {
  const rows = await db
    .selectFrom('generations')
    .select(['model', 'provider_name'])
    .select([
      sql<number>`count(*)`.as('requests'),
      sql<number>`sum(case when status = 'error' then 1 else 0 end)`.as('errors'),
      sql<number>`sum(case when status = 'error' and error_code >= 400 and error_code < 500 then 1 else 0 end)`.as('errors_4xx'),
      sql<number>`sum(case when status = 'error' and (error_code is null or error_code >= 500 or error_code < 400) then 1 else 0 end)`.as(
        'errors_5xx',
      ),
      sql<number>`sum(total_cost)`.as('cost'),
    ])
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('created_at', '>=', since)
    .where('provider_name', 'is not', null)
    .groupBy(['model', 'provider_name'])
    .execute();
  return rows.map(numbers);
}

/** usage_hourly's hours from `fromHour` ('YYYY-MM-DDTHH', inclusive) by model and provider. */
export async function outcomesFromHour(db: Kysely<Database>, reach: Reach, fromHour: string): Promise<EndpointOutcomes[]> {
  const rows = await db
    .selectFrom('usage_hourly')
    .select(['model', 'provider_name'])
    .select((eb) => [
      eb.fn.sum<number>('requests').as('requests'),
      eb.fn.sum<number>('errors').as('errors'),
      eb.fn.sum<number>('errors_4xx').as('errors_4xx'),
      eb.fn.sum<number>('errors_5xx').as('errors_5xx'),
      eb.fn.sum<number>('cost').as('cost'),
    ])
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('hour', '>=', fromHour)
    .where('provider_name', '<>', '')
    .groupBy(['model', 'provider_name'])
    .execute();
  return rows.map(numbers);
}
