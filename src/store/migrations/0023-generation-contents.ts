import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { INT, TEXT } from './column-types.js';

/**
 * The prompt and completion of a generation, kept only for organizations that
 * turned content storage on (organization_settings.store_content, off by
 * default), beside the ledger rather than in it, so that a ledger row stays
 * small. Each text is bounded when written (accounting/generation-content.ts);
 * `truncated` says one was cut.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .alterTable('organization_settings')
    .addColumn('store_content', INT, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('generation_contents')
    .addColumn('generation_id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('input', TEXT, (c) => c.notNull())
    .addColumn('completion', TEXT)
    .addColumn('reasoning', TEXT)
    .addColumn('truncated', INT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();
}
