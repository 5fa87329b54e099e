import type { Logger } from 'pino';
import { bootstrap } from '../accounts/bootstrap.js';
import { openStore, type Store } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { systemClock } from '../util/clock.js';

/**
 * Opens the database, brings its schema up to date and makes sure the default
 * organization exists. A management key created by this call is shown once.
 */
export async function openDatabase(
  databaseUrl: string,
  bootstrapKey: string | undefined,
  log: Pick<Logger, 'info' | 'warn'>,
): Promise<{ store: Store; organizationId: string }> {
  const store = openStore(databaseUrl);
  try {
    const applied = await migrateToLatest(store);
    if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
    const result = await bootstrap(store.db, systemClock, bootstrapKey);
    if (result.createdKey) {
      process.stderr.write(
        `\nFirst start: created the default organization and this management key.\n` +
          `It is shown once and never stored; keep it now:\n\n    ${result.createdKey}\n\n`,
      );
    }
    if (result.storedConfiguredKey) log.info('stored GATEWAY_BOOTSTRAP_MANAGEMENT_KEY as a management key');
    return { store, organizationId: result.organizationId };
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Opens the database for one command, runs it, and closes the database whatever happens. */
export async function withDatabase<T>(
  databaseUrl: string,
  bootstrapKey: string | undefined,
  log: Pick<Logger, 'info' | 'warn'>,
  command: (store: Store, organizationId: string) => Promise<T>,
): Promise<T> {
  const { store, organizationId } = await openDatabase(databaseUrl, bootstrapKey, log);
  try {
    return await command(store, organizationId);
  } finally {
    await store.close();
  }
}
