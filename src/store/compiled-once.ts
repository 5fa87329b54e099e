import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.js';

// Keyed by the dialect's adapter: a transaction is a new Kysely instance but speaks the same SQL.
const built = new WeakMap<object, Map<string, unknown>>();

/** What `build` made for `db`'s dialect under `key`, made once. */
export function perDialect<T>(db: Kysely<Database>, key: string, build: () => T): T {
  const adapter = db.getExecutor().adapter;
  let byKey = built.get(adapter);
  if (!byKey) built.set(adapter, (byKey = new Map()));
  if (!byKey.has(key)) byKey.set(key, build());
  return byKey.get(key) as T;
}

const placeholder = (name: string) => `\u0000${name}\u0000`;

/**
 * A query Kysely compiles once per dialect and binds anew on every run.
 * `build` receives a placeholder for each named value; the compiled
 * parameters are remembered by name, so a run only puts its values in the
 * order the SQL wants them. Building a query node by node costs more than
 * SQLite's own work for the small statements of the hot path.
 */
export function compiledOnce<Name extends string>(
  key: string,
  names: readonly Name[],
  build: (db: Kysely<Database>, values: Record<Name, never>) => Compilable,
): (db: Kysely<Database>, values: Record<Name, unknown>) => CompiledQuery {
  const byPlaceholder = new Map(names.map((name) => [placeholder(name), name]));
  return (db, values) => {
    const { sql, slots } = perDialect(db, key, () => {
      const compiled = build(db, Object.fromEntries(names.map((name) => [name, placeholder(name)])) as Record<Name, never>).compile();
      return {
        sql: compiled.sql,
        slots: compiled.parameters.map((p) => (typeof p === 'string' && byPlaceholder.get(p)) || { constant: p }),
      };
    });
    return CompiledQuery.raw(
      sql,
      slots.map((slot) => (typeof slot === 'string' ? values[slot] : slot.constant)),
    );
  };
}
