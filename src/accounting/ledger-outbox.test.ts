import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import type { GenerationRecord } from '../store/schema.js';
import { LedgerOutbox } from './ledger-outbox.js';

const row = (id: string, cost = 0.001, key = 'key-a'): GenerationRecord => ({
  id,
  organization_id: 'org',
  workspace_id: 'ws',
  api_key_hash: key,
  model: 'm',
  api_type: 'completions',
  status: 'success',
  streamed: 0,
  cancelled: 0,
  total_cost: cost,
  created_at: '2026-11-21T00:00:00.000Z',
});

const clock = () => new Date('2026-11-21T12:00:00Z');
const directory = () => mkdtempSync(join(tmpdir(), 'mg-outbox-'));

/** A writer that keeps what it is given, or fails as an away database does. */
function database() {
  const written: GenerationRecord[][] = [];
  let away = false;
  return {
    written,
    set away(value: boolean) {
      away = value;
    },
    write: async (rows: readonly GenerationRecord[]) => {
      if (away) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      written.push([...rows]);
    },
  };
}

describe('LedgerOutbox', () => {
  it('keeps rows in a file and each key’s unwritten spend until they are written back, then removes the file', async () => {
    const dir = directory();
    const outbox = await LedgerOutbox.open({ directory: dir, maxBytes: 1 << 20 });
    await outbox.append([row('g1', 0.25), row('g2', 0.5, 'key-b')]);
    await outbox.append([row('g3', 0.25)]);
    expect(outbox.rows).toBe(3);
    expect(outbox.unwrittenSpend()).toEqual(
      new Map([
        ['key-a', 0.5],
        ['key-b', 0.5],
      ]),
    );
    expect(
      readFileSync(join(dir, 'outbox-0.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id),
    ).toEqual(['g1', 'g2', 'g3']);

    const db = database();
    await outbox.replay(db.write, clock);
    expect(db.written.flat().map((r) => r.id)).toEqual(['g1', 'g2', 'g3']);
    expect(outbox.rows).toBe(0);
    expect(outbox.unwrittenSpend().size).toBe(0);
    expect(readdirSync(dir)).toEqual(['outbox-0.lock']);
    await outbox.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps what a failed replay did not write, and goes on from there', async () => {
    const outbox = await LedgerOutbox.open({ directory: directory(), maxBytes: 1 << 20 });
    await outbox.append([row('g1'), row('g2')]);
    const db = database();
    db.away = true;
    const failure = await outbox.replay(db.write, clock).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(outbox.rows).toBe(2);
    await outbox.append([row('g3')]);
    db.away = false;
    await outbox.replay(db.write, clock);
    expect(db.written.flat().map((r) => r.id)).toEqual(['g1', 'g2', 'g3']);
    await outbox.close();
  });

  it('is taken over by the next run after a crash, without the row a crash cut short', async () => {
    const dir = directory();
    const first = await LedgerOutbox.open({ directory: dir, maxBytes: 1 << 20 });
    await first.append([row('g1', 0.25), row('g2', 0.25)]);
    // A crash: the file stays, a last append cut short, and its lock names a process that is not running.
    appendFileSync(join(dir, 'outbox-0.jsonl'), '{"id":"g3","api_key');
    await first.close();
    writeFileSync(join(dir, 'outbox-0.lock'), '999999999');
    const next = await LedgerOutbox.open({ directory: dir, maxBytes: 1 << 20 });
    expect(next.rows).toBe(2);
    expect(next.unwrittenSpend()).toEqual(new Map([['key-a', 0.5]]));
    await next.append([row('g4')]);
    const db = database();
    await next.replay(db.write, clock);
    expect(db.written.flat().map((r) => r.id)).toEqual(['g1', 'g2', 'g4']);
    await next.close();
  });

  it('gives each process (and each outbox of one process) a file of its own', async () => {
    const dir = directory();
    const a = await LedgerOutbox.open({ directory: dir, maxBytes: 1 << 20 });
    const b = await LedgerOutbox.open({ directory: dir, maxBytes: 1 << 20 });
    await a.append([row('a1')]);
    await b.append([row('b1')]);
    expect(readdirSync(dir).sort()).toEqual(['outbox-0.jsonl', 'outbox-0.lock', 'outbox-1.jsonl', 'outbox-1.lock']);
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses rows past its size, as the database being away (503)', async () => {
    const outbox = await LedgerOutbox.open({ directory: directory(), maxBytes: 400 });
    await outbox.append([row('g1')]);
    const refused = await outbox.append([row('g2'), row('g3')]).catch((error: unknown) => error);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(String(refused)).toContain('LEDGER_OUTBOX_MAX_BYTES');
    expect(outbox.rows).toBe(1);
    await outbox.close();
  });
});
