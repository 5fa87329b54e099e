// The SQLite ledger's CPU per generation on the gateway's core, measured apart from any request.
import Database from 'better-sqlite3';
import { ledgerWrites } from '../src/accounting/ledger-writes.js';
import { openStore } from '../src/store/database.js';
import { migrateToLatest } from '../src/store/migrate.js';
import type { GenerationRecord } from '../src/store/schema.js';
import { checkpointInBackground } from '../src/store/wal-checkpoints.js';
import { newGenerationId } from '../src/util/ids.js';
import { cpuNow, loadMain } from './load-main.js';
import type { LedgerCostResult, LedgerCostSpec } from './load-types.js';

/** A row the gateway itself wrote in the load phases, so that its size and columns are the real ones. */
function sampleRow(file: string): GenerationRecord {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare("SELECT * FROM generations WHERE status = 'success' LIMIT 1").get() as GenerationRecord | undefined;
    if (!row) throw new Error(`no successful generation in ${file}`);
    return row;
  } finally {
    db.close();
  }
}

/**
 * Writes rows through the gateway's own ledger path (ledgerWrites) over a
 * store set up as `serve` sets it up (migrations, WAL checkpoint worker), one
 * row per transaction and then `batch` per transaction, and reports the
 * process's CPU per row for each: the bare proxy commits nothing, so this is
 * what the ledger adds under it.
 */
loadMain(async (spec: LedgerCostSpec, mark): Promise<LedgerCostResult> => {
  const sample = sampleRow(spec.gatewayDatabase);
  const store = openStore(`sqlite:${spec.file}`);
  await migrateToLatest(store);
  const checkpoints = checkpointInBackground(store);
  const write = ledgerWrites(store);
  const perRow = async (batch: number, rows: number) => {
    const before = cpuNow();
    for (let written = 0; written < rows; written += batch) {
      const now = new Date();
      const created_at = now.toISOString();
      await write(
        Array.from({ length: batch }, () => ({ ...sample, id: newGenerationId(now), created_at })),
        now,
      );
    }
    return ((cpuNow() - before) * 1e6) / rows;
  };
  await perRow(1, spec.singleRows / 10); // warm-up: JIT, statement cache, the first WAL pages
  mark('start');
  const singleRowMicros = await perRow(1, spec.singleRows);
  const batchRowMicros = await perRow(spec.batch, spec.batchRows);
  mark('end');
  await checkpoints.stop();
  await store.close();
  return { singleRowMicros, batchRowMicros, batch: spec.batch };
});
