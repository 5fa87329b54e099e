// The SQLite ledger's CPU per row for two source trees (before and after a change), bench/ledger-cost.ts run for
// each in turn, pinned to one core, on the same sample row. See bench/README.md ("Ledger cost of a change").
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { recordGenerations } from '../src/accounting/record-generation.js';
import { openStore } from '../src/store/database.js';
import { migrateToLatest } from '../src/store/migrate.js';
import { ledgerRows } from './analytics-rows.js';
import type { LoadOutput } from './load-main.js';
import type { LedgerCostResult, LedgerCostSpec } from './load-types.js';
import { detectPinning, GATEWAY_CORE, pinned } from './pinning.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: '.' },
    pairs: { type: 'string', default: '8' },
  },
});
if (!values.before) {
  process.stdout.write('usage: npx tsx bench/ledger-cost-compare.ts --before <checkout> [--after <checkout>] [--pairs 8]\n');
  process.exit(2);
}
type Side = 'before' | 'after';
const roots: Record<Side, string> = { before: resolve(values.before), after: resolve(values.after) };
const pinning = detectPinning();
const dir = mkdtempSync(join(tmpdir(), 'ledger-cost-compare-'));

/** A database holding one successful generation of the analytics benchmark's shape: the row both trees write. */
async function sampleDatabase(): Promise<string> {
  const file = join(dir, 'sample.sqlite');
  const store = openStore(`sqlite:${file}`);
  await migrateToLatest(store);
  const now = new Date();
  const [rows] = ledgerRows([{ hash: 'sample-key', workspaceId: 'sample-workspace' }], 'sample-org', 50, now, 50);
  await recordGenerations(store.db, rows!.filter((row) => row.status === 'success').slice(0, 1), now);
  await store.close();
  return file;
}

function run(side: Side, sample: string, n: number): LedgerCostResult {
  const spec: LedgerCostSpec = {
    gatewayDatabase: sample,
    file: join(dir, `${side}-${n}.sqlite`),
    singleRows: 3_000,
    batchRows: 20_000,
    batch: 20,
  };
  const { command, args } = pinned(pinning, GATEWAY_CORE, process.execPath, [
    '--import',
    'tsx',
    'bench/ledger-cost.ts',
    JSON.stringify(spec),
  ]);
  const child = spawnSync(command, args, { cwd: roots[side], encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`${side}: bench/ledger-cost.ts failed\n${child.stderr}`);
  return (JSON.parse(child.stdout.trim().split('\n').at(-1)!) as LoadOutput<LedgerCostResult>).result;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  const sample = await sampleDatabase();
  const samples: Record<Side, LedgerCostResult[]> = { before: [], after: [] };
  for (let n = 0; n < Number(values.pairs); n++) {
    for (const side of n % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const))
      samples[side].push(run(side, sample, n));
    process.stderr.write(`ledger-cost-compare: pair ${n + 1} done\n`);
  }
  const lines = ['| rows a commit | before µs CPU/row | after µs CPU/row | after/before |', '|---|---|---|---|'];
  for (const [label, pick] of [
    ['1', (r: LedgerCostResult) => r.singleRowMicros],
    ['20', (r: LedgerCostResult) => r.batchRowMicros],
  ] as const) {
    const [b, a] = [median(samples.before.map(pick)), median(samples.after.map(pick))];
    lines.push(
      `| ${label} | ${b.toFixed(1)} (${samples.before.map((r) => pick(r).toFixed(1)).join(', ')}) | ${a.toFixed(1)} (${samples.after.map((r) => pick(r).toFixed(1)).join(', ')}) | ${(a / b).toFixed(3)} |`,
    );
  }
  process.stdout.write(`medians of ${values.pairs} runs each, alternating, ${pinning.note}\n${lines.join('\n')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
