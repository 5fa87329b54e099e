import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type PostgresPoolOptions, postgresPool } from './postgres-pool.js';
import type { Database } from './schema.js';
import { POSTGRES_POOL_DEFAULTS } from './shared-service-defaults.js';
import { withStatementCache } from './sqlite-statement-cache.js';

export type Engine = 'sqlite' | 'postgres';

/** A SQLite store's own connection, for work that runs better synchronously than through Kysely (the ledger's batches). */
export interface SqliteConnection {
  readonly database: SqliteDatabase.Database;
  /** A prepared statement by its SQL, from the cache Kysely's queries use too. */
  prepare(sql: string): SqliteDatabase.Statement;
}

export interface Store {
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  /** Set on SQLite: Kysely's one connection underneath. */
  readonly sqlite?: SqliteConnection;
  /** The connection string the store was opened with (credentials included). */
  readonly url: string;
  close(): Promise<void>;
}

export class DatabaseUrlError extends Error {}

/** `sqlite:./path`, `sqlite:/abs/path`, `sqlite::memory:`, or `postgres://…`/`postgresql://…`. */
export function parseDatabaseUrl(url: string): { engine: 'sqlite'; file: string } | { engine: 'postgres' } {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return { engine: 'postgres' };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file.length === 0) throw new DatabaseUrlError(`DATABASE_URL "${url}" names no SQLite file`);
    return { engine: 'sqlite', file };
  }
  throw new DatabaseUrlError(`DATABASE_URL must start with sqlite: or postgres:// (got "${withoutCredentials(url)}")`);
}

/** A connection string fit to print: its user and password masked. */
const withoutCredentials = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');

/** The SQLite file a DATABASE_URL names, resolved; undefined for PostgreSQL and `sqlite::memory:`. */
export function sqliteFile(url: string): string | undefined {
  const parsed = parseDatabaseUrl(url);
  return parsed.engine === 'sqlite' && parsed.file !== ':memory:' ? resolve(parsed.file) : undefined;
}

/** The database a DATABASE_URL names, for a message: the SQLite file's path, or the PostgreSQL URL without credentials. */
export function describeDatabase(url: string): string {
  const file = sqliteFile(url);
  return file ? `the SQLite file ${file}` : `the PostgreSQL database ${withoutCredentials(url)}`;
}

/** How a PostgreSQL store waits for its server and whom it tells of an outage (postgres-pool.ts); SQLite has no server. */
export type StoreOptions = Partial<PostgresPoolOptions>;

export function openStore(url: string, options: StoreOptions = {}): Store {
  const parsed = parseDatabaseUrl(url);
  if (parsed.engine === 'postgres') {
    // int8 (COUNT, SUM of integers) arrives as a string by default; our counts fit in a double.
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
    const pool = postgresPool(url, { ...POSTGRES_POOL_DEFAULTS, ...options });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', url, close: () => db.destroy() };
  }
  const file = sqliteFile(url) ?? ':memory:';
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const cached = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  const connection: SqliteConnection = { database: sqlite, prepare: (text) => cached.prepare(text) as unknown as SqliteDatabase.Statement };
  return { db, engine: 'sqlite', url, sqlite: connection, close: () => db.destroy() };
}
