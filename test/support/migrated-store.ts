import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { openStore, type Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import type { Database } from '../../src/store/schema.js';
import type { TestDatabase, TestEngine } from './databases.js';

/**
 * A store of `engine` with the schema up to date for the suite's tests:
 * opened before them, closed and dropped after. Its `db` is read inside a test.
 */
export function migratedStore(engine: TestEngine): { readonly db: Kysely<Database> } {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await engine.create();
    store = openStore(database.url);
    await migrateToLatest(store);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  return {
    get db() {
      if (!store) throw new Error('migratedStore: the store is opened in beforeAll; read it inside a test');
      return store.db;
    },
  };
}
