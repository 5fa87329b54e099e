import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { COUNT, TEXT } from './column-types.js';

/**
 * What GET /classifications/task reads (classifications/):
 *
 * - task_samples: a small sample of the recorded chat requests, each kept as
 *   its prompt's features (the auto-router's cue ids, never its text), its
 *   tokens, model and day, until the background pass classifies it and
 *   deletes it: a queue any instance may empty.
 * - task_usage_daily: the classified samples counted per organization, UTC
 *   day, workspace, task and model (requests and tokens), kept
 *   CLASSIFICATION_DAYS days.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('task_samples')
    .addColumn('id', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
      engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('day', TEXT, (c) => c.notNull())
    .addColumn('model', TEXT, (c) => c.notNull())
    .addColumn('tokens', COUNT, (c) => c.notNull())
    .addColumn('cues', TEXT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('task_usage_daily')
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('day', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('task', TEXT, (c) => c.notNull())
    .addColumn('model', TEXT, (c) => c.notNull())
    .addColumn('requests', COUNT, (c) => c.notNull())
    .addColumn('tokens', COUNT, (c) => c.notNull())
    .addPrimaryKeyConstraint('task_usage_daily_pk', ['organization_id', 'day', 'workspace_id', 'task', 'model'])
    .execute();
  // The pass prunes by day across organizations.
  await db.schema.createIndex('task_usage_daily_by_day').on('task_usage_daily').column('day').execute();
}
