import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/**
 * Inputs for a run that another gateway instance drives (a steer, or the
 * answer to its paused question): the instance that received one writes it
 * here and waits; the run's driver hands it to the intern's process and
 * marks it taken, or says why it could not.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('intern_run_inputs')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('run_id', TEXT, (c) => c.notNull())
    .addColumn('kind', TEXT, (c) => c.notNull())
    .addColumn('text', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('taken_at', TEXT)
    .addColumn('error', TEXT)
    .execute();
  await db.schema.createIndex('intern_run_inputs_run').on('intern_run_inputs').column('run_id').execute();
}
