import { Migrator } from 'kysely';
import type { Store } from './database.js';
import { migrationProvider } from './migrations/index.js';

/** Brings the schema up to date. Kysely's migrator takes a lock, so concurrent instances are safe. */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.engine) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
