import { describe, expect, it } from 'vitest';
import { LedgerWriter } from './ledger-writer.js';
import { testEngines } from '../../test/support/databases.js';
import { openStore } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import { recordGenerations, type GenerationRecord } from './record-generation.js';

const row = (id: string, over: Partial<GenerationRecord> = {}): GenerationRecord => ({
  id,
  organization_id: 'org',
  workspace_id: 'ws',
  api_key_hash: 'h',
  model: 'm',
  api_type: 'completions',
  status: 'success',
  streamed: 0,
  cancelled: 0,
  created_at: '2026-11-21T00:00:00.000Z',
  ...over,
});

describe.each(testEngines)('LedgerWriter on $name', (engine) => {
  async function withWriter(test: (writer: LedgerWriter, count: () => Promise<number>, transactions: () => number) => Promise<void>) {
    const database = await engine.create();
    const store = openStore(database.url);
    await migrateToLatest(store);
    let transactions = 0;
    const writer = new LedgerWriter(
      (rows, now) => {
        transactions++;
        return recordGenerations(store.db, rows, now);
      },
      () => new Date('2026-11-21T12:00:00Z'),
    );
    const count = async () => (await store.db.selectFrom('generations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    try {
      await test(writer, async () => Number(await count()), () => transactions);
    } finally {
      await store.close();
      await database.drop();
    }
  }

  it('commits concurrent rows in far fewer transactions than rows, each caller waiting for its own', async () => {
    await withWriter(async (writer, count, transactions) => {
      await Promise.all(Array.from({ length: 100 }, (_, i) => writer.record(row(`gen-${i}`))));
      expect(await count()).toBe(100);
      expect(transactions()).toBeLessThan(10);
    });
  });

  it('commits the rows recorded in one event-loop turn in one transaction', async () => {
    await withWriter(async (writer, count, transactions) => {
      await Promise.all([writer.record(row('gen-1')), writer.record(row('gen-2')), writer.record(row('gen-3'))]);
      expect(await count()).toBe(3);
      expect(transactions()).toBe(1);
    });
  });

  it('writes a lone row at once', async () => {
    await withWriter(async (writer, count) => {
      await writer.record(row('gen-alone'));
      expect(await count()).toBe(1);
    });
  });

  it('fails only the bad row of a batch', async () => {
    await withWriter(async (writer, count) => {
      const results = await Promise.allSettled([writer.record(row('gen-a')), writer.record(row('gen-a')), writer.record(row('gen-b'))]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await count()).toBe(2);
    });
  });
});
