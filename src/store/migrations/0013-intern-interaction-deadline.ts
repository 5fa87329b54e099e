import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/**
 * Until when a run paused on a question or approval (manual mode) waits for
 * its answer: set when it pauses from the intern's interaction deadline, so
 * any instance can cancel it once that passes.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema.alterTable('intern_runs').addColumn('interaction_deadline_at', TEXT).execute();
}
