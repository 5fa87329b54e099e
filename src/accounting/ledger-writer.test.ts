import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testEngines } from '../../test/support/databases.js';
import { until } from '../../test/support/until.js';
import { openStore } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import type { GenerationRecord } from '../store/schema.js';
import { LedgerOutbox } from './ledger-outbox.js';
import { LedgerWriter } from './ledger-writer.js';
import { ledgerWrites, ledgerWritesOnce } from './ledger-writes.js';
import { recordGenerations } from './record-generation.js';

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
    const count = async () =>
      (
        await store.db
          .selectFrom('generations')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    try {
      await test(
        writer,
        async () => Number(await count()),
        () => transactions,
      );
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

describe.each(testEngines)('LedgerWriter while the database is away, on $name', (engine) => {
  /**
   * A ledger over `engine` whose commits fail as an unreachable database's while `db.away`, or never answer while
   * `db.silent`. A commit is given up on after `commitTimeoutMs`: long, unless the test is about one that never
   * answers, so that a loaded machine's slow commit is not taken for an outage.
   */
  async function withOutage(
    test: (
      writer: LedgerWriter,
      db: { away: boolean; silent: boolean },
      ids: () => Promise<string[]>,
      outbox: LedgerOutbox,
    ) => Promise<void>,
    commitTimeoutMs = 10_000,
  ) {
    const database = await engine.create();
    const store = openStore(database.url);
    await migrateToLatest(store);
    const outbox = await LedgerOutbox.open({ directory: mkdtempSync(join(tmpdir(), 'mg-ledger-outage-')), maxBytes: 1 << 20 });
    const db = { away: false, silent: false };
    const write = ledgerWrites(store);
    const once = ledgerWritesOnce(store.db);
    const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    // Away for the writer's commits and for its outbox's replay alike: a replay must not find the database back early.
    const writeOnce: typeof once = async (rows, now) => {
      if (db.away) throw unreachable();
      return once(rows, now);
    };
    const writer = new LedgerWriter(
      async (rows, now) => {
        if (db.away) throw unreachable();
        await write(rows, now);
        // Committed, but the answer never comes back.
        if (db.silent) await new Promise(() => undefined);
      },
      () => new Date('2026-11-21T12:00:00Z'),
      { outage: { outbox, writeOnce, commitTimeoutMs, retryMs: 10 } },
    );
    const ids = async () => (await store.db.selectFrom('generations').select('id').orderBy('id').execute()).map((r) => r.id);
    try {
      await test(writer, db, ids, outbox);
    } finally {
      writer.close();
      await outbox.close();
      await store.close();
      await database.drop();
    }
  }

  it('answers its callers once their rows are in the outbox, and writes the rows when the database is back', async () => {
    await withOutage(async (writer, db, ids, outbox) => {
      db.away = true;
      await Promise.all([writer.record(row('gen-1')), writer.record(row('gen-2'))]);
      await writer.record(row('gen-3'));
      expect(writer.databaseAway).toBe(true);
      expect(outbox.rows).toBe(3);
      expect(await ids()).toEqual([]);
      db.away = false;
      expect(await until(ids, (stored) => stored.length === 3)).toEqual(['gen-1', 'gen-2', 'gen-3']);
      await until(
        () => outbox.rows,
        (rows) => rows === 0,
      );
      expect(writer.databaseAway).toBe(false);
      await writer.record(row('gen-4'));
      expect(await ids()).toEqual(['gen-1', 'gen-2', 'gen-3', 'gen-4']);
      expect(outbox.rows).toBe(0);
    });
  });

  it('takes a commit that does not answer in time for an outage, and does not write its rows twice when it had committed', async () => {
    await withOutage(async (writer, db, ids, outbox) => {
      db.silent = true;
      await writer.record(row('gen-late'));
      expect(outbox.rows).toBe(1);
      db.silent = false;
      await until(
        () => outbox.rows,
        (rows) => rows === 0,
      );
      expect(await ids()).toEqual(['gen-late']);
    }, 300);
  });
});
