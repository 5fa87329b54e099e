import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/**
 * The endpoints a video job may still go to, in plan order, when the one it
 * is on cannot take it (JSON array of {provider, upstream_model}): provider
 * preferences with fallbacks hold for jobs as they do for chat.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .alterTable('video_jobs')
    .addColumn('fallbacks', TEXT, (c) => c.notNull().defaultTo('[]'))
    .execute();
}
