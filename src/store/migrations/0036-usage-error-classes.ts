import { type Kysely, sql } from 'kysely';
import { COUNT } from './column-types.js';

/**
 * The rollups' errors by status class: errors_4xx, the requests refused for
 * the client's own doing (a bad body, a spent limit, a guardrail, an unknown
 * model, the rate limit: since the ledger records refusals,
 * api/refusals/record-refusals.ts), and errors_5xx, the rest (the providers
 * failed, the gateway could not serve; a failure with no status, a video job
 * a provider failed, counts here). errors stays their sum. Both start from
 * the ledger's rows written before: the hours from the generations, the
 * days from the hours (usage_hourly keeps every hour usage_daily folded).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['usage_hourly', 'usage_daily']) {
    for (const column of ['errors_4xx', 'errors_5xx'])
      await db.schema
        .alterTable(table)
        .addColumn(column, COUNT, (c) => c.notNull().defaultTo(0))
        .execute();
  }
  await sql`
    update usage_hourly set errors_4xx = g.errors_4xx, errors_5xx = g.errors_5xx
    from (
      select organization_id, substr(created_at, 1, 13) as hour, workspace_id, api_key_hash, model,
        coalesce(provider_name, '') as provider_name,
        sum(case when error_code >= 400 and error_code < 500 then 1 else 0 end) as errors_4xx,
        sum(case when error_code >= 400 and error_code < 500 then 0 else 1 end) as errors_5xx
      from generations where status = 'error'
      group by organization_id, substr(created_at, 1, 13), workspace_id, api_key_hash, model, coalesce(provider_name, '')
    ) as g
    where usage_hourly.organization_id = g.organization_id and usage_hourly.hour = g.hour
      and usage_hourly.workspace_id = g.workspace_id and usage_hourly.api_key_hash = g.api_key_hash
      and usage_hourly.model = g.model and usage_hourly.provider_name = g.provider_name
  `.execute(db);
  await sql`
    update usage_daily set errors_4xx = h.errors_4xx, errors_5xx = h.errors_5xx
    from (
      select organization_id, substr(hour, 1, 10) as day, workspace_id, api_key_hash, model, provider_name,
        sum(errors_4xx) as errors_4xx, sum(errors_5xx) as errors_5xx
      from usage_hourly
      group by organization_id, substr(hour, 1, 10), workspace_id, api_key_hash, model, provider_name
    ) as h
    where usage_daily.organization_id = h.organization_id and usage_daily.day = h.day
      and usage_daily.workspace_id = h.workspace_id and usage_daily.api_key_hash = h.api_key_hash
      and usage_daily.model = h.model and usage_daily.provider_name = h.provider_name
  `.execute(db);
}
