import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { compiledOnce } from './compiled-once.js';
import type { Database } from './schema.js';

const postgres = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('compiledOnce', () => {
  it('builds once and binds each run its values by name, constants kept, a name used twice bound twice', () => {
    const build = vi.fn((db: Kysely<Database>, v: Record<'hash' | 'cost', never>) =>
      db
        .updateTable('api_keys')
        .set({ usage: sql`usage + ${v.cost}`, name: 'constant', usage_daily: sql`usage_daily + ${v.cost}` })
        .where('hash', '=', v.hash),
    );
    const update = compiledOnce('test-update', ['hash', 'cost'], build);
    const first = update(postgres, { hash: 'h1', cost: 0.5 });
    const second = update(postgres, { hash: 'h2', cost: 2 });
    expect(build).toHaveBeenCalledTimes(1);
    expect(first.sql).toBe('update "api_keys" set "usage" = usage + $1, "name" = $2, "usage_daily" = usage_daily + $3 where "hash" = $4');
    expect(first.parameters).toEqual([0.5, 'constant', 0.5, 'h1']);
    expect(second.parameters).toEqual([2, 'constant', 2, 'h2']);
  });
});
