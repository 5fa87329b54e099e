import type { Kysely } from 'kysely';
import { TEXT } from './column-types.js';

/**
 * A video job submitted on a BYOK credential keeps using it for its status
 * polls and downloads, which run later, on any instance: `credential_id`
 * names it (null: the gateway's own credential). The planned fallbacks carry
 * theirs in their JSON.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('video_jobs').addColumn('credential_id', TEXT).execute();
}
