import type { Kysely } from 'kysely';
import type { Engine } from '../database.js';
import { INT, MONEY, TEXT } from './column-types.js';

/**
 * Interns: the programme flag per organization, the interns themselves, the
 * sessions issued to callers, runs (leased like video_jobs so any instance can
 * resume them), each run's durable transcript, and per-intern vault secrets.
 * Ledger rows of a run's model calls point at it through generations.intern_run_id.
 */
export async function up(db: Kysely<unknown>, _engine: Engine): Promise<void> {
  await db.schema
    .createTable('intern_programme')
    .addColumn('organization_id', TEXT, (c) => c.primaryKey())
    .addColumn('enrolled_at', TEXT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('interns')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('description', TEXT)
    .addColumn('instructions', TEXT)
    .addColumn('model', TEXT)
    .addColumn('status', TEXT, (c) => c.notNull())
    .addColumn('progress', TEXT)
    .addColumn('last_failure_message', TEXT)
    .addColumn('vault_id', TEXT)
    .addColumn('settings', TEXT, (c) => c.notNull())
    .addColumn('created_by_user_id', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('interns_org').on('interns').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('intern_sessions')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('intern_id', TEXT, (c) => c.notNull())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('api_key_hash', TEXT, (c) => c.notNull())
    .addColumn('origin', TEXT, (c) => c.notNull())
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('intern_runs')
    .addColumn('id', TEXT, (c) => c.primaryKey())
    .addColumn('session_id', TEXT, (c) => c.notNull())
    .addColumn('intern_id', TEXT, (c) => c.notNull())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('api_key_hash', TEXT, (c) => c.notNull())
    .addColumn('approval_mode', TEXT, (c) => c.notNull())
    .addColumn('status', TEXT, (c) => c.notNull())
    .addColumn('end_reason', TEXT)
    .addColumn('error', TEXT)
    .addColumn('started_at', TEXT, (c) => c.notNull())
    .addColumn('ended_at', TEXT)
    .addColumn('deadline_at', TEXT, (c) => c.notNull())
    .addColumn('cost', MONEY, (c) => c.notNull().defaultTo(0))
    .addColumn('steps', INT, (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_by', TEXT)
    .addColumn('claimed_until', TEXT)
    .addColumn('pending', TEXT)
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('intern_runs_due').on('intern_runs').columns(['status', 'claimed_until']).execute();
  await db.schema.createIndex('intern_runs_session').on('intern_runs').column('session_id').execute();

  await db.schema
    .createTable('intern_run_steps')
    .addColumn('run_id', TEXT, (c) => c.notNull())
    .addColumn('seq', INT, (c) => c.notNull())
    .addColumn('kind', TEXT, (c) => c.notNull())
    .addColumn('content', TEXT, (c) => c.notNull())
    .addColumn('generation_id', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('intern_run_steps_pk', ['run_id', 'seq'])
    .execute();

  await db.schema
    .createTable('intern_vault_secrets')
    .addColumn('intern_id', TEXT, (c) => c.notNull())
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('ciphertext', TEXT, (c) => c.notNull())
    .addColumn('hosts', TEXT, (c) => c.notNull().defaultTo('[]'))
    .addColumn('fingerprint', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('intern_vault_secrets_pk', ['intern_id', 'name'])
    .execute();

  // Workspace secrets (the SDK's /vault/secrets), copied into an intern's vault by name.
  await db.schema
    .createTable('vault_secrets')
    .addColumn('workspace_id', TEXT, (c) => c.notNull())
    .addColumn('organization_id', TEXT, (c) => c.notNull())
    .addColumn('name', TEXT, (c) => c.notNull())
    .addColumn('ciphertext', TEXT, (c) => c.notNull())
    .addColumn('hosts', TEXT, (c) => c.notNull().defaultTo('[]'))
    .addColumn('fingerprint', TEXT)
    .addColumn('created_at', TEXT, (c) => c.notNull())
    .addColumn('updated_at', TEXT, (c) => c.notNull())
    .addPrimaryKeyConstraint('vault_secrets_pk', ['workspace_id', 'name'])
    .execute();

  await db.schema.alterTable('generations').addColumn('intern_run_id', TEXT).execute();
  await db.schema.createIndex('generations_intern_run').on('generations').column('intern_run_id').execute();
}
