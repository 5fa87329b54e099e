import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { bootstrap } from '../accounts/bootstrap.js';
import { describeDatabase, openStore, type Store, type StoreOptions, sqliteFile } from '../store/database.js';
import { hasSchema, migrateToLatest } from '../store/migrate.js';
import { findDefaultOrganization } from '../store/repositories/organizations.js';
import { systemClock } from '../util/clock.js';
import { StartError } from './listen-address.js';

type Log = Pick<Logger, 'info' | 'warn'>;

async function migrate(store: Store, log: Log): Promise<void> {
  const applied = await migrateToLatest(store);
  if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
}

/** Opens the database, creating it if need be, and brings its schema up to date: what a start (and `migrate`) does. */
export async function openMigratedStore(databaseUrl: string, log: Log, options: StoreOptions = {}): Promise<Store> {
  const store = openStore(databaseUrl, options);
  try {
    await migrate(store, log);
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

/**
 * Opens the database of a command other than `serve` (and `demo`), runs the command on the default organization,
 * and closes the database whatever happens. Only a start creates a database and its first management key: a command
 * run where none exists (no SQLite file, a PostgreSQL database without the gateway's schema or not yet started on)
 * fails naming the database it looked for, and creates nothing, so that the operator's key is not spent on a
 * database nobody uses. An existing database is brought up to date, as a start would.
 */
export async function withDatabase<T>(
  databaseUrl: string,
  log: Log,
  command: (store: Store, organizationId: string) => Promise<T>,
): Promise<T> {
  const missing = (why: string) =>
    new StartError(
      `${describeDatabase(databaseUrl)} ${why}: start the gateway on it once (model-gateway serve), which creates it, or set DATABASE_URL to the gateway's database`,
    );
  const file = sqliteFile(databaseUrl);
  if (file !== undefined && !existsSync(file)) throw missing('does not exist');
  const store = openStore(databaseUrl);
  try {
    if (!(await hasSchema(store))) throw missing('has no gateway schema');
    await migrate(store, log);
    const organization = await findDefaultOrganization(store.db);
    if (!organization) throw missing('has no default organization yet');
    return await command(store, organization.id);
  } finally {
    await store.close();
  }
}
