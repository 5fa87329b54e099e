import type { Kysely, Selectable } from 'kysely';
import { type Reach, reachClause } from '../reach.js';
import type { Database, GenerationsTable } from '../schema.js';

export type GenerationRow = Selectable<GenerationsTable>;

/** A generation in reach; another organization's (or, for a scoped key, another workspace's) is as absent as a missing one. */
export function findGeneration(db: Kysely<Database>, reach: Reach, id: string): Promise<GenerationRow | undefined> {
  return db
    .selectFrom('generations')
    .selectAll()
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .where('id', '=', id)
    .executeTakeFirst();
}

/** What a workspace's requests cost in all, from the ledger. */
export async function workspaceSpend(db: Kysely<Database>, organizationId: string, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('generations')
    .select((eb) => eb.fn.sum<number | string | null>('total_cost').as('spent'))
    .where('organization_id', '=', organizationId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return Number(row?.spent ?? 0);
}

/** What GET /generations filters by; times are ISO 8601, `from` inclusive and `to` exclusive. */
export interface GenerationFilter {
  reach: Reach;
  apiKeyHash?: string;
  model?: string;
  status?: GenerationRow['status'];
  from?: string;
  to?: string;
  offset: number;
  limit: number;
}

/**
 * A page of an organization's ledger, newest first (ties by id, so pages neither repeat nor skip a row).
 * The order is that of the generations_org_recent and generations_key_recent indexes (migration 0030).
 */
export function listGenerations(db: Kysely<Database>, filter: GenerationFilter): Promise<GenerationRow[]> {
  let query = db
    .selectFrom('generations')
    .selectAll()
    .where('organization_id', '=', filter.reach.organizationId)
    .where(reachClause(filter.reach));
  if (filter.apiKeyHash !== undefined) query = query.where('api_key_hash', '=', filter.apiKeyHash);
  if (filter.model !== undefined) query = query.where('model', '=', filter.model);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute();
}
