import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/** Feedback on a generation (POST /generation/feedback), as many as are sent: each is kept. */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('generation_feedback')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('generation_id', TEXT, (c) => c.notNull())
    .addColumn('api_key_hash', TEXT, (c) => c.notNull())
    .addColumn('category', TEXT, (c) => c.notNull())
    .addColumn('comment', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('generation_feedback_generation')
    .on('generation_feedback')
    .columns(['organization_id', 'generation_id'])
    .execute();
}
