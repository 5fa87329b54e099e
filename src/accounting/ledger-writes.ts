import type { CompiledQuery, Kysely } from 'kysely';
import type { SqliteConnection, Store } from '../store/database.js';
import type { Database, GenerationRecord } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import type { LedgerOutbox } from './ledger-outbox.js';
import { LEDGER_OUTAGE_DEFAULTS, LedgerWriter } from './ledger-writer.js';
import { chargeStatements, type LedgerExtra, ledgerStatements, recordGenerations, type WriteGenerations } from './record-generation.js';
import { rollupStatements } from './usage-rollup.js';

/**
 * How the ledger commits a batch on this store. On SQLite the batch's
 * statements (the same ones recordGenerations runs) go in one synchronous
 * better-sqlite3 transaction, taken while Kysely's connection lock is held so
 * that no Kysely transaction is open around it. Kysely's own transaction (a
 * lock, a promise per statement, BEGIN and COMMIT as queries) cost more than
 * SQLite's work for the one-row batches of a lightly loaded gateway (the
 * benchmark's profile). PostgreSQL's driver is asynchronous anyway.
 */
export function ledgerWrites(store: Pick<Store, 'db' | 'sqlite'>, extra?: LedgerExtra): WriteGenerations {
  const { db, sqlite } = store;
  if (!sqlite) return (rows, now, contents) => recordGenerations(db, rows, now, contents, extra);
  return sqliteLedgerWrites(db, sqlite, extra);
}

function sqliteLedgerWrites(db: Kysely<Database>, sqlite: SqliteConnection, extra: LedgerExtra | undefined): WriteGenerations {
  const commit = sqlite.database.transaction((statements: CompiledQuery[]) => {
    for (const { sql, parameters } of statements) sqlite.prepare(sql).run(parameters as unknown[]);
  });
  return async (rows, now, contents) => {
    if (rows.length === 0) return;
    // One prepared one-row INSERT per row: better-sqlite3 runs it faster than one INSERT of
    // the whole batch, whose hundreds of parameters cost more to bind (19 against 26 µs a row).
    const statements = ledgerStatements(db, rows, now, 1, contents, extra);
    await db.connection().execute(async () => commit(statements));
  };
}

/**
 * How the ledger writes rows that may be in the database already: the
 * outbox's, written again after an outage (a commit whose answer was lost on
 * the way may have happened). A row whose id is there is skipped (ON
 * CONFLICT DO NOTHING), and only the rows inserted are charged to their keys
 * and added to the rollups: a row written twice is billed and counted once.
 * One transaction per batch; a batch without rows still opens one, which
 * tells whether the database is back.
 */
export function ledgerWritesOnce(db: Kysely<Database>, extra?: LedgerExtra): WriteGenerations {
  return (rows, now) =>
    db.transaction().execute(async (trx) => {
      const inserted: GenerationRecord[] = [];
      for (const row of rows) {
        const result = await trx
          .insertInto('generations')
          .values(row)
          .onConflict((conflict) => conflict.column('id').doNothing())
          .executeTakeFirst();
        if (result.numInsertedOrUpdatedRows) inserted.push(row);
      }
      const more = inserted.length > 0 ? extra?.(trx, inserted, now) : undefined;
      for (const query of [...chargeStatements(trx, inserted, now), ...rollupStatements(trx, inserted, now), ...(more ? [more] : [])])
        await trx.executeQuery(query);
    });
}

/**
 * The ledger writer of a gateway over `store`: group commit (ledger-writer.ts),
 * and with an outbox, rows kept there while the database is away and
 * written back, once each, when it returns.
 */
export function storeLedgerWriter(
  store: Pick<Store, 'db' | 'sqlite'>,
  clock: Clock,
  outbox?: LedgerOutbox,
  onReplayError?: (error: unknown) => void,
  extra?: LedgerExtra,
): LedgerWriter {
  const outage = outbox && {
    outbox,
    writeOnce: ledgerWritesOnce(store.db, extra),
    ...LEDGER_OUTAGE_DEFAULTS,
    ...(onReplayError ? { onReplayError } : {}),
  };
  return new LedgerWriter(ledgerWrites(store, extra), clock, outage ? { outage } : {});
}
