import { type MigrationResult, type MigrationResultSet, Migrator, sql } from 'kysely';
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

/**
 * Kysely's migrator looks for its table by reading the catalog of every schema; on a PostgreSQL server where other
 * schemas change meanwhile (another deployment migrating, a schema dropped), that read can fail with "column …" or
 * "schema … does not exist" about objects that are not ours. Such a failure is tried again; the migrations themselves
 * run in one transaction under the migrator's lock, so a retry never applies one twice.
 */
const CATALOG_RACE = /does not exist|cache lookup failed/;
const CATALOG_ATTEMPTS = 5;

/** The migrator of this store's schema. */
async function migratorOf(store: Store): Promise<Migrator> {
  const schema = await migrationTableSchema(store);
  return new Migrator({
    db: store.db,
    provider: migrationProvider(store.engine),
    ...(schema !== undefined ? { migrationTableSchema: schema } : {}),
  });
}

/** Runs `migrate` with this store's migrator, again after a catalog race (CATALOG_RACE) that ran no migration. */
async function migrateRetryingRaces(
  store: Store,
  migrate: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<readonly MigrationResult[]> {
  const migrator = await migratorOf(store);
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrate(migrator);
    if (!error) return results ?? [];
    const failure = error instanceof Error ? error : new Error(String(error));
    const raced = store.engine === 'postgres' && CATALOG_RACE.test(failure.message) && (results ?? []).length === 0;
    if (!raced || attempt === CATALOG_ATTEMPTS) throw failure;
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
}

/** Brings the schema up to the migration `name` (a migration's test writes the rows it finds before it). */
export async function migrateTo(store: Store, name: string): Promise<void> {
  await migrateRetryingRaces(store, (migrator) => migrator.migrateTo(name));
}

/** Brings the schema up to date. Kysely's migrator takes a lock, so concurrent instances are safe. */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const results = await migrateRetryingRaces(store, (migrator) => migrator.migrateToLatest());
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations this build has that the database has not run (one read of the migration table): readiness checks it. */
export async function pendingMigrations(store: Store): Promise<string[]> {
  const known = Object.keys(await migrationProvider(store.engine).getMigrations());
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(store.db);
  const applied = new Set(rows.map((row) => row.name));
  return known.filter((name) => !applied.has(name));
}

/** Whether the database has the gateway's schema: its migration table, in the schema the migrator would use. */
export async function hasSchema(store: Store): Promise<boolean> {
  const { rows } =
    store.engine === 'postgres'
      ? await sql<{ n: number }>`select count(*) as n from information_schema.tables
          where table_schema = current_schema() and table_name = 'kysely_migration'`.execute(store.db)
      : await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(
          store.db,
        );
  return Number(rows[0]?.n ?? 0) > 0;
}
