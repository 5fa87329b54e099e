import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { MONEY, TEXT } from './column-types.js';

/**
 * A video job holds the most it can cost from its submission until it ends
 * (accounting/reservations.ts): `reserved_usd` until `reserved_until`. The
 * hold lives with the job, so that it outlives the instance that took it and
 * any instance that reads the key's spend counts it. Running jobs are read by
 * key when a key's spend is loaded, hence the index.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('video_jobs').addColumn('reserved_usd', MONEY).execute();
  await db.schema.alterTable('video_jobs').addColumn('reserved_until', TEXT).execute();
  await db.schema.createIndex('video_jobs_key_status').on('video_jobs').columns(['api_key_hash', 'status']).execute();
}
