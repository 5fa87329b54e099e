import type { Kysely, Selectable } from 'kysely';
import type { Database, GenerationsTable } from '../schema.js';

export type GenerationRow = Selectable<GenerationsTable>;

/** A generation of this organization; another organization's is as absent as a missing one. */
export function findGeneration(db: Kysely<Database>, organizationId: string, id: string): Promise<GenerationRow | undefined> {
  return db.selectFrom('generations').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** What GET /generations filters by; times are ISO 8601, `from` inclusive and `to` exclusive. */
export interface GenerationFilter {
  organizationId: string;
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
  let query = db.selectFrom('generations').selectAll().where('organization_id', '=', filter.organizationId);
  if (filter.apiKeyHash !== undefined) query = query.where('api_key_hash', '=', filter.apiKeyHash);
  if (filter.model !== undefined) query = query.where('model', '=', filter.model);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').offset(filter.offset).limit(filter.limit).execute();
}
