// GET /generations over a million-row ledger: how long a page takes, first and deep, filtered or not.
// Run alone: npx tsx bench/generations-list.ts [rows] (SQLite, in a temporary file removed after).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore } from '../src/store/database.js';
import { migrateToLatest } from '../src/store/migrate.js';
import { organizationReach } from '../src/store/reach.js';
import { type GenerationFilter, listGenerations } from '../src/store/repositories/generations.js';
import type { GenerationRecord } from '../src/store/schema.js';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const KEYS = 200;
const MODELS = ['openai/gpt-4o', 'anthropic/claude-sonnet', 'google/gemini-pro', 'meta/llama-70b', 'mistral/large'];
const DAY_MS = 86_400_000;
const START = Date.parse('2026-10-01T00:00:00.000Z');

const dir = mkdtempSync(join(tmpdir(), 'mg-bench-list-'));
const store = openStore(`sqlite:${join(dir, 'ledger.sqlite')}`);
try {
  await migrateToLatest(store);
  const fill = performance.now();
  const batch = 500;
  for (let i = 0; i < ROWS; i += batch) {
    const rows: GenerationRecord[] = [];
    for (let j = i; j < Math.min(ROWS, i + batch); j++) {
      // 30 days of traffic, a key in 200 (a few heavy, most light), five models, one in fifty an error.
      const key = j % 7 === 0 ? j % KEYS : j % 5;
      rows.push({
        id: `gen-${j.toString().padStart(8, '0')}`,
        organization_id: 'org_bench',
        workspace_id: 'ws',
        api_key_hash: key.toString(16).padStart(64, '0'),
        model: MODELS[j % MODELS.length]!,
        provider_name: 'p',
        api_type: 'completions',
        status: j % 50 === 0 ? 'error' : 'success',
        streamed: 0,
        cancelled: 0,
        total_cost: 0.001,
        created_at: new Date(START + Math.floor((j / ROWS) * 30 * DAY_MS)).toISOString(),
      });
    }
    await store.db.insertInto('generations').values(rows).execute();
  }
  console.log(`${ROWS} rows written in ${((performance.now() - fill) / 1000).toFixed(1)} s`);

  const cases: [string, Partial<GenerationFilter>][] = [
    ['newest page', {}],
    ['page at offset 10,000', { offset: 10_000 }],
    ['one heavy key', { apiKeyHash: (1).toString(16).padStart(64, '0') }],
    ['one light key', { apiKeyHash: (147).toString(16).padStart(64, '0') }],
    ['one model, errors', { model: MODELS[0]!, status: 'error' }],
    ['one day, 10 days back', { from: new Date(START + 20 * DAY_MS).toISOString(), to: new Date(START + 21 * DAY_MS).toISOString() }],
  ];
  for (const [name, filter] of cases) {
    const times: number[] = [];
    for (let run = 0; run < 20; run++) {
      const t = performance.now();
      await listGenerations(store.db, { reach: organizationReach('org_bench'), offset: 0, limit: 51, ...filter });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`${name.padEnd(24)} median ${times[10]!.toFixed(2)} ms, worst ${times[19]!.toFixed(2)} ms`);
  }
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
