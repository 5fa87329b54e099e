import type { CompiledQuery, Kysely } from 'kysely';
import type { Store, SqliteConnection } from '../store/database.js';
import type { Database } from '../store/schema.js';
import type { WriteGenerations } from './ledger-writer.js';
import { ledgerStatements, recordGenerations } from './record-generation.js';

/**
 * How the ledger commits a batch on this store. On SQLite the batch's
 * statements (the same ones recordGenerations runs) go in one synchronous
 * better-sqlite3 transaction, taken while Kysely's connection lock is held so
 * that no Kysely transaction is open around it. Kysely's own transaction (a
 * lock, a promise per statement, BEGIN and COMMIT as queries) cost more than
 * SQLite's work for the one-row batches of a lightly loaded gateway (the
 * benchmark's profile). PostgreSQL's driver is asynchronous anyway.
 */
export function ledgerWrites(store: Pick<Store, 'db' | 'sqlite'>): WriteGenerations {
  const { db, sqlite } = store;
  if (!sqlite) return (rows, now) => recordGenerations(db, rows, now);
  return sqliteLedgerWrites(db, sqlite);
}

function sqliteLedgerWrites(db: Kysely<Database>, sqlite: SqliteConnection): WriteGenerations {
  const commit = sqlite.database.transaction((statements: CompiledQuery[]) => {
    for (const { sql, parameters } of statements) sqlite.prepare(sql).run(parameters as unknown[]);
  });
  return async (rows, now) => {
    if (rows.length === 0) return;
    // One prepared one-row INSERT per row: better-sqlite3 runs it faster than one INSERT of
    // the whole batch, whose hundreds of parameters cost more to bind (19 against 26 µs a row).
    const statements = ledgerStatements(db, rows, now, 1);
    await db.connection().execute(async () => commit(statements));
  };
}
