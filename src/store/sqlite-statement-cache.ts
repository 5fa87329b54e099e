import type SqliteDatabase from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase, SqliteStatement } from 'kysely';
import { LRUCache } from 'lru-cache';

/**
 * The SQLite database as Kysely sees it, with prepared statements kept by
 * their SQL. Kysely prepares every query anew, and preparing costs more than
 * running the small queries of the hot path. Reusing a statement is safe:
 * Kysely runs one query at a time on the connection and reads results eagerly.
 */
export function withStatementCache(db: SqliteDatabase.Database, max = 1000): KyselySqliteDatabase {
  const statements = new LRUCache<string, SqliteStatement>({ max });
  return {
    close: () => db.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql) as unknown as SqliteStatement;
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
