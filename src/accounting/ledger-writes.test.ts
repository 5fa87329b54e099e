import { afterEach, describe, expect, it } from 'vitest';
import { testEngines } from '../../test/support/databases.js';
import { hashApiKey } from '../accounts/api-key-material.js';
import { bootstrap } from '../accounts/bootstrap.js';
import { openStore, type Store } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';
import type { GenerationRecord } from '../store/schema.js';
import { LedgerWriter } from './ledger-writer.js';
import { ledgerWrites, ledgerWritesOnce } from './ledger-writes.js';

const row = (id: string): GenerationRecord => ({
  id,
  organization_id: 'org',
  workspace_id: 'ws',
  api_key_hash: 'hash',
  model: 'acme/fast',
  api_type: 'completions',
  status: 'success',
  streamed: 0,
  cancelled: 0,
  total_cost: 0.5,
  created_at: '2026-11-23T12:00:00.000Z',
});
const now = new Date('2026-11-23T12:00:00.000Z');

describe.each(testEngines)('ledgerWrites on $name', (engine) => {
  let store: Store;
  let drop: () => Promise<void>;

  const open = async () => {
    const database = await engine.create();
    drop = database.drop;
    store = openStore(database.url);
    await migrateToLatest(store);
  };
  const storedIds = async () => (await store.db.selectFrom('generations').select('id').orderBy('id').execute()).map((r) => r.id);

  afterEach(async () => {
    await store.close();
    await drop();
  });

  it('commits a batch whole or not at all', async () => {
    await open();
    const write = ledgerWrites(store);
    await write([row('gen-a'), row('gen-b')], now);
    await expect(write([row('gen-c'), row('gen-a')], now)).rejects.toThrow();
    expect(await storedIds()).toEqual(['gen-a', 'gen-b']);
  });

  it('neither joins nor breaks a transaction open on the connection', async () => {
    await open();
    const write = ledgerWrites(store);
    let written: Promise<void> | undefined;
    await expect(
      store.db.transaction().execute(async (trx) => {
        await trx.insertInto('generations').values(row('gen-rolled-back')).execute();
        written = write([row('gen-kept')], now);
        // The write may not run inside this transaction: give it the chance it must not take.
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await written;
    expect(await storedIds()).toEqual(['gen-kept']);
  });

  it('writes rows that may be there already once, and charges each once (ledgerWritesOnce, the outbox’s replay)', async () => {
    await open();
    const key = 'sk-mg-v1-ledger-writes-once-test-key-000000000000000000';
    await bootstrap(store.db, () => now, key);
    const charged = (id: string) => ({ ...row(id), api_key_hash: hashApiKey(key) });
    // Committed, but its answer was lost on the way: the row went to the outbox too.
    await ledgerWrites(store)([charged('gen-a')], now);
    await ledgerWritesOnce(store.db)([charged('gen-a'), charged('gen-b')], now);
    await ledgerWritesOnce(store.db)([charged('gen-b')], now);
    await ledgerWritesOnce(store.db)([], now);
    expect(await storedIds()).toEqual(['gen-a', 'gen-b']);
    const { usage } = await store.db.selectFrom('api_keys').select('usage').where('hash', '=', hashApiKey(key)).executeTakeFirstOrThrow();
    expect(usage).toBeCloseTo(1, 12);
  });

  it("writes a row's stored content in the row's commit (the ledger writer's batches), and only the rows given one", async () => {
    await open();
    const writer = new LedgerWriter(ledgerWrites(store), () => now);
    const content = (id: string) => ({
      generation_id: id,
      organization_id: 'org',
      input: '[{"role":"user","content":"hi"}]',
      completion: 'hello',
      reasoning: null,
      truncated: 0,
      created_at: now.toISOString(),
    });
    await Promise.all([writer.record(row('gen-stored'), content('gen-stored')), writer.record(row('gen-plain'))]);
    writer.close();
    expect(await storedIds()).toEqual(['gen-plain', 'gen-stored']);
    expect(await store.db.selectFrom('generation_contents').selectAll().execute()).toEqual([content('gen-stored')]);
    // A batch that fails writes neither its rows nor their contents.
    await expect(ledgerWrites(store)([row('gen-new'), row('gen-stored')], now, [content('gen-new')])).rejects.toThrow();
    expect(await store.db.selectFrom('generation_contents').select('generation_id').execute()).toEqual([{ generation_id: 'gen-stored' }]);
  });
});
