import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { MONEY, TEXT } from './column-types.js';

/**
 * Credits an operator granted an organization (credits/grant-credits.ts): a
 * ledger of grants, written once and never changed, whose sum is the
 * organization's total credits. No foreign key, as the generations ledger
 * has none: what was granted stays on record.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('credit_grants')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('amount_usd', MONEY, (c) => c.notNull())
    .addColumn('note', TEXT)
    .addColumn('granted_by', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_grants_org_created').on('credit_grants').columns(['organization_id', 'created_at']).execute();
}
