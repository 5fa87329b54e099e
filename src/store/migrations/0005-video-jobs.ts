import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { INT, MONEY, TEXT } from './column-types.js';

/**
 * Video generation jobs: their state lives here, not in a process, so that any
 * instance can advance them. `claimed_until` is the poller's lease (ISO time):
 * an instance polls a job only after an UPDATE moved it into the future.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('video_jobs')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('api_key_hash', TEXT, (c) => c.notNull())
    .addColumn('generation_id', TEXT, (c) => c.notNull())
    .addColumn('request_id', TEXT)
    .addColumn('model', TEXT, (c) => c.notNull())
    .addColumn('provider', TEXT, (c) => c.notNull())
    .addColumn('upstream_model', TEXT, (c) => c.notNull())
    .addColumn('request', TEXT, (c) => c.notNull())
    .addColumn('status', TEXT, (c) => c.notNull())
    .addColumn('upstream_id', TEXT)
    .addColumn('error', TEXT)
    .addColumn('failures', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('seconds', INT)
    .addColumn('outputs', INT)
    .addColumn('cost', MONEY)
    .addColumn('next_poll_at', TEXT, (c) => c.notNull())
    .addColumn('claimed_until', TEXT, (c) => c.notNull())
    .addColumn('claim_token', TEXT)
    .addColumn('user_agent', TEXT)
    .addColumn('origin', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('video_jobs_due').on('video_jobs').columns(['status', 'next_poll_at']).execute();
}
