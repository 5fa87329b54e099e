import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases.js';
import { migratedStore } from '../../../test/support/migrated-store.js';

describe('migration 0030-generations-list-indexes on sqlite', () => {
  const store = migratedStore(testEngines[0]!);
  const plan = async (query: ReturnType<typeof sql>) =>
    (await sql<{ detail: string }>`explain query plan ${query}`.execute(store.db)).rows.map((r) => r.detail).join(' ');

  it('reads a page of an organization’s ledger, newest first, from an index rather than sorting the table', async () => {
    const detail = await plan(
      sql`select * from generations where organization_id = ${'org-1'} and status = ${'error'} order by created_at desc, id desc limit 51`,
    );
    expect(detail).toContain('generations_org_recent');
    expect(detail).not.toContain('TEMP B-TREE');
  });

  it('reads one key’s page from the key’s index', async () => {
    const detail = await plan(
      sql`select * from generations where organization_id = ${'org-1'} and api_key_hash = ${'h'} order by created_at desc, id desc limit 51`,
    );
    expect(detail).toContain('generations_key_recent');
  });
});
