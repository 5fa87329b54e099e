import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases.js';
import { migratedStore } from '../../../test/support/migrated-store.js';

describe.each(testEngines)('migration 0017-generations-unread-indexes on $name', (engine) => {
  const store = migratedStore(engine);

  const indexes = async (): Promise<string[]> => {
    const { rows } =
      engine.name === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'generations'`.execute(store.db)
        : await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = 'generations'`.execute(store.db);
    return rows.map((r) => r.name).sort();
  };

  it('leaves the ledger only the indexes its lookups read', async () => {
    const names = await indexes();
    expect(names).not.toContain('generations_org_created');
    expect(names).not.toContain('generations_key_created');
    expect(names).toEqual(expect.arrayContaining(['generations_intern_run', 'generations_parent']));
  });

  it.runIf(engine.name === 'sqlite')('still finds a generation by its id from the primary key', async () => {
    const { rows } = await sql<{
      detail: string;
    }>`explain query plan select * from generations where organization_id = ${'org-1'} and id = ${'gen-1'}`.execute(store.db);
    expect(rows.map((r) => r.detail).join(' ')).toMatch(/USING INDEX sqlite_autoindex_generations_1 \(id=\?\)/);
  });
});
