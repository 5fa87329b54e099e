import type { Logger } from 'pino';
import { bootstrap } from '../accounts/bootstrap.js';
import { openStore, type Store, type StoreOptions } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { systemClock } from '../util/clock.js';

type Log = Pick<Logger, 'info' | 'warn'>;

/** Opens the database and brings its schema up to date. */
export async function openMigratedStore(databaseUrl: string, log: Log, options: StoreOptions = {}): Promise<Store> {
  const store = openStore(databaseUrl, options);
  try {
    const applied = await migrateToLatest(store);
    if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

/**
 * Makes sure the default organization exists and returns its id. A management
 * key created by this call is shown once, on stderr.
 */
export async function bootstrapOrganization(store: Store, bootstrapKey: string | undefined, log: Log): Promise<string> {
  const result = await bootstrap(store.db, systemClock, bootstrapKey);
  if (result.createdKey) {
    process.stderr.write(
      `\nFirst start: created the default organization and this management key.\n` +
        `It is shown once and never stored; keep it now:\n\n    ${result.createdKey}\n\n`,
    );
  }
  if (result.storedConfiguredKey) log.info('stored GATEWAY_BOOTSTRAP_MANAGEMENT_KEY as a management key');
  return result.organizationId;
}

/** Opens the database for one command, runs it, and closes the database whatever happens. */
export async function withDatabase<T>(
  databaseUrl: string,
  bootstrapKey: string | undefined,
  log: Log,
  command: (store: Store, organizationId: string) => Promise<T>,
): Promise<T> {
  const store = await openMigratedStore(databaseUrl, log);
  try {
    return await command(store, await bootstrapOrganization(store, bootstrapKey, log));
  } finally {
    await store.close();
  }
}
