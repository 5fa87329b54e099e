import { Migrator, sql } from 'kysely';
import type { Store } from './database.js';
import { migrationProvider } from './migrations/index.js';

/**
 * Kysely looks for its migration tables in every schema unless told which one;
 * on a PostgreSQL server shared by several schemas (test suites, tenants) it
 * would find another schema's tables and skip creating its own. Pin it to ours.
 */
async function migrationTableSchema(store: Store): Promise<string | undefined> {
  if (store.engine !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db);
  return rows[0]?.schema;
}

/** Brings the schema up to date. Kysely's migrator takes a lock, so concurrent instances are safe. */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const schema = await migrationTableSchema(store);
  const migrator = new Migrator({
    db: store.db,
    provider: migrationProvider(store.engine),
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations this build has that the database has not run (one read of the migration table): readiness checks it. */
export async function pendingMigrations(store: Store): Promise<string[]> {
  const known = Object.keys(await migrationProvider(store.engine).getMigrations());
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(store.db);
  const applied = new Set(rows.map((row) => row.name));
  return known.filter((name) => !applied.has(name));
}
