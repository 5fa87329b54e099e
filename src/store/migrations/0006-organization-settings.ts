import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { TEXT } from './column-types.js';

/**
 * An organization's defaults for chat requests: provider preferences and
 * plugins, each a JSON document validated by the chat request's own schemas
 * (null when unset). One row per organization, made on its first change.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('organization_settings')
    .addColumn('organization_id', TEXT, (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('provider', TEXT)
    .addColumn('plugins', TEXT)
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .execute();
}
