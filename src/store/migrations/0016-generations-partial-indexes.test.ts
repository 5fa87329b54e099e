import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases.js';
import { migratedStore } from '../../../test/support/migrated-store.js';

describe.each(testEngines)('migration 0016-generations-partial-indexes on $name', (engine) => {
  const store = migratedStore(engine);

  const definition = async (name: string): Promise<string> => {
    const { rows } =
      engine.name === 'sqlite'
        ? await sql<{ text: string }>`select sql as text from sqlite_master where type = 'index' and name = ${name}`.execute(store.db)
        : await sql<{
            text: string;
          }>`select indexdef as text from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(store.db);
    return rows[0]?.text ?? '';
  };

  it('indexes only the ledger rows that have a parent generation or an intern run', async () => {
    expect(await definition('generations_parent')).toMatch(/where \(?"?parent_generation_id"? is not null\)?/i);
    expect(await definition('generations_intern_run')).toMatch(/where \(?"?intern_run_id"? is not null\)?/i);
  });

  it.runIf(engine.name === 'sqlite')('still serves a lookup by intern run from its index', async () => {
    const { rows } = await sql<{ detail: string }>`explain query plan select id from generations where intern_run_id = ${'run-1'}`.execute(
      store.db,
    );
    expect(rows.map((r) => r.detail).join(' ')).toContain('generations_intern_run');
  });
});
