import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { INT, MONEY, TEXT } from './column-types.js';

/**
 * Guardrails and where they apply. A guardrail's rules (models, providers,
 * content filters, ceilings) are one JSON object: they are read and written
 * whole, and compiled whole into the per-organization cache. An assignment
 * binds a guardrail to an API key, a member, a workspace or the whole
 * organization (`scope`, `target_id`).
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('guardrails')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('description', TEXT)
    .addColumn('rules', TEXT, (c) => c.notNull())
    .addColumn('limit_usd', MONEY)
    .addColumn('reset_interval', TEXT)
    .addColumn('include_byok_in_budgets', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT)
    .execute();
  await db.schema
    .createIndex('guardrails_org_workspace')
    .on('guardrails')
    .columns(['organization_id', 'workspace_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('guardrail_assignments')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('guardrail_id', TEXT, (c) => c.notNull().references('guardrails.id').onDelete('cascade'))
    .addColumn('scope', TEXT, (c) => c.notNull())
    .addColumn('target_id', TEXT, (c) => c.notNull())
    .addColumn('assigned_by', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addUniqueConstraint('guardrail_assignments_target', ['guardrail_id', 'scope', 'target_id'])
    .execute();
  await db.schema
    .createIndex('guardrail_assignments_org_scope')
    .on('guardrail_assignments')
    .columns(['organization_id', 'scope', 'created_at'])
    .execute();
}
