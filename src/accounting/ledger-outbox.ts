import { type FileHandle, mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DatabaseUnavailableError } from '../store/database-unavailable.js';
import type { GenerationRecord } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import type { WriteGenerations } from './record-generation.js';

export interface OutboxOptions {
  /** Where outbox files live (LEDGER_OUTBOX_DIR): one per gateway process, kept on this machine. */
  directory: string;
  /** Past this size the outbox takes no more rows (LEDGER_OUTBOX_MAX_BYTES): their requests fail with 503 until the database is back. */
  maxBytes: number;
}

/** The outbox is full: the database has been away too long for the rows this gateway may keep. */
export class LedgerOutboxFullError extends DatabaseUnavailableError {}

/** Rows written back to the database per transaction. */
const REPLAY_ROWS = 256;
/** Rows parsed at a time when a start counts what a previous run left. */
const LOAD_ROWS = 4_096;
const READ_BYTES = 1 << 20;

/** Outbox files claimed by this process, so that two stores in one process never share one. */
const claimedHere = new Set<string>();

/**
 * The ledger rows accepted while the database is away. They are appended to a
 * file of JSON lines, one file per gateway process, and each append is
 * fsync'ed before its callers are told: a crash loses no accepted row. Memory
 * holds only each key's unwritten spend (which counts against its limits) and,
 * while they are written back, one batch of rows. When the database is back
 * the rows are written in order, idempotently (ledger-writes.ts's
 * ledgerWritesOnce), and the file is removed once all are in.
 *
 * A process claims the first file of the directory whose owner (a pid in a
 * lock file beside it) is not running: a restarted gateway takes over the
 * rows its previous run left, and gateways that share a directory (cluster
 * workers) each have one.
 */
export class LedgerOutbox {
  private handle: FileHandle | undefined;
  /** Bytes in the file. */
  private size = 0;
  /** Bytes from the start of the file whose rows are in the database. */
  private written = 0;
  private count = 0;
  private readonly spend = new Map<string, number>();
  /** File operations run one at a time (an append, the read of a batch, removing the file). */
  private queue: Promise<unknown> = Promise.resolve();
  private replaying: Promise<void> | undefined;

  private constructor(
    private readonly file: string,
    private readonly lock: string,
    private readonly maxBytes: number,
  ) {}

  /** Claims an outbox file in `directory` and counts the rows a previous run left in it, to be written back. */
  static async open(options: OutboxOptions): Promise<LedgerOutbox> {
    await mkdir(options.directory, { recursive: true });
    for (let slot = 0; ; slot++) {
      const base = join(options.directory, `outbox-${slot}`);
      if (!(await claim(`${base}.lock`))) continue;
      const outbox = new LedgerOutbox(`${base}.jsonl`, `${base}.lock`, options.maxBytes);
      await outbox.load();
      return outbox;
    }
  }

  /** Rows accepted and not yet in the database. */
  get rows(): number {
    return this.count;
  }

  /** USD of each key's rows not yet in the database (a copy): counted against its limits as if they were. */
  unwrittenSpend(): ReadonlyMap<string, number> {
    return new Map(this.spend);
  }

  /** Appends `rows` durably (written and fsync'ed); fails when the file would pass its size. */
  append(rows: readonly GenerationRecord[]): Promise<void> {
    return this.exclusive(async () => {
      const text = rows.map((row) => `${JSON.stringify(row)}\n`).join('');
      const bytes = Buffer.byteLength(text);
      if (this.size + bytes > this.maxBytes) {
        throw new LedgerOutboxFullError(
          `the ledger outbox ${this.file} holds ${this.size} bytes, its limit is ${this.maxBytes} (LEDGER_OUTBOX_MAX_BYTES)`,
        );
      }
      const handle = (this.handle ??= await this.create());
      try {
        await handle.write(text);
        await handle.datasync();
      } catch (error) {
        // A full disk may have taken part of it: the file ends where the rows it holds end.
        await handle.truncate(this.size).catch(() => undefined);
        throw error;
      }
      this.size += bytes;
      this.count += rows.length;
      for (const row of rows) this.tally(row, 1);
    });
  }

  /**
   * Writes the rows back with `write` (which must skip rows already in the
   * database), a batch per transaction, until the outbox is empty; then the
   * file goes. Rejects with `write`'s error, keeping what is not written for
   * the next call. One replay at a time: a second call shares the first.
   */
  replay(write: WriteGenerations, clock: Clock): Promise<void> {
    this.replaying ??= (async () => {
      for (;;) {
        const batch = await this.exclusive(() => this.nextBatch());
        if (!batch) return;
        await write(batch.rows, clock());
        this.written = batch.end;
        this.count -= batch.rows.length;
        for (const row of batch.rows) this.tally(row, -1);
      }
    })().finally(() => {
      this.replaying = undefined;
    });
    return this.replaying;
  }

  /** Lets go of the file (it stays, with its rows, for the next run) and of its claim. */
  close(): Promise<void> {
    return this.exclusive(async () => {
      await this.handle?.close();
      this.handle = undefined;
      await rm(this.lock, { force: true });
      claimedHere.delete(this.lock);
    });
  }

  /** The file, new: its directory is fsync'ed too, or a crash could lose the file with its fsync'ed rows. */
  private async create(): Promise<FileHandle> {
    const handle = await open(this.file, 'a+');
    const directory = await open(dirname(this.file), 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
    return handle;
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Adds (`sign` 1) or takes away (-1) a row's cost from its key's unwritten spend. */
  private tally(row: GenerationRecord, sign: 1 | -1): void {
    const cost = row.total_cost ?? 0;
    if (cost === 0) return;
    const left = (this.spend.get(row.api_key_hash) ?? 0) + sign * cost;
    if (left > 1e-12) this.spend.set(row.api_key_hash, left);
    else this.spend.delete(row.api_key_hash);
  }

  /** Counts the rows already in the file; a last line cut short by a crash (never acknowledged) is cut off. */
  private async load(): Promise<void> {
    const handle = await open(this.file, 'a+');
    for (;;) {
      const batch = await readRows(handle, this.size, LOAD_ROWS);
      if (batch.end === this.size) break;
      for (const row of batch.rows) this.tally(row, 1);
      this.count += batch.rows.length;
      this.size = batch.end;
    }
    if ((await handle.stat()).size > this.size) await handle.truncate(this.size);
    if (this.size > 0) this.handle = handle;
    else {
      await handle.close();
      await rm(this.file, { force: true });
    }
  }

  /** The next rows to write back, or none when all are written (then the file goes). */
  private async nextBatch(): Promise<{ rows: GenerationRecord[]; end: number } | undefined> {
    if (this.handle && this.written < this.size) {
      const batch = await readRows(this.handle, this.written, REPLAY_ROWS);
      if (batch.rows.length > 0 || batch.end > this.written) return batch;
    }
    if (this.handle) {
      await this.handle.close();
      this.handle = undefined;
      await rm(this.file, { force: true });
    }
    this.size = 0;
    this.written = 0;
    return undefined;
  }
}

/**
 * Up to `max` rows from `offset`, and the offset after the last whole line
 * read. A line that is not JSON (a disk that corrupted it) is passed over:
 * it could never be written.
 */
async function readRows(handle: FileHandle, offset: number, max: number): Promise<{ rows: GenerationRecord[]; end: number }> {
  const rows: GenerationRecord[] = [];
  let end = offset;
  let buffer = Buffer.allocUnsafe(READ_BYTES);
  while (rows.length < max) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, end);
    let start = 0;
    for (
      let newline = buffer.indexOf(10);
      rows.length < max && newline !== -1 && newline < bytesRead;
      newline = buffer.indexOf(10, start)
    ) {
      try {
        rows.push(JSON.parse(buffer.toString('utf8', start, newline)) as GenerationRecord);
      } catch {
        // Not a row: passed over.
      }
      start = newline + 1;
    }
    if (start > 0) end += start;
    // No whole line: the end of the file (perhaps a line cut short), or a row longer than the buffer.
    else if (bytesRead < buffer.length) break;
    else buffer = Buffer.allocUnsafe(buffer.length * 2);
  }
  return { rows, end };
}

/** Takes the lock file for this process unless a running process holds it. */
async function claim(lock: string): Promise<boolean> {
  if (claimedHere.has(lock)) return false;
  try {
    await writeFile(lock, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number(await readFile(lock, 'utf8').catch(() => ''));
    if (owner !== process.pid && isRunning(owner)) return false;
    // Its owner is gone (or was this process in an earlier life, as in a container): the file is ours to finish.
    await writeFile(lock, String(process.pid));
  }
  claimedHere.add(lock);
  return true;
}

function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
