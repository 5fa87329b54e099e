import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import type { GenerationContentRecord, GenerationRecord } from '../store/schema.js';
import type { Clock } from '../util/clock.js';
import type { LedgerOutbox } from './ledger-outbox.js';
import type { WriteGenerations } from './record-generation.js';

interface Pending {
  row: GenerationRecord;
  /** The generation's prompt and completion, when its organization stores them: written in the row's transaction. */
  content: GenerationContentRecord | undefined;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What the ledger does while the database is away; without it a write that fails fails its callers. */
export interface LedgerOutage {
  outbox: LedgerOutbox;
  /** Writes the outbox's rows back, skipping rows already in the database (ledger-writes.ts's ledgerWritesOnce). */
  writeOnce: WriteGenerations;
  /** A commit unanswered by then (checked five times as often) is taken for an outage (a cut no socket error reports); its rows go to the outbox. */
  commitTimeoutMs: number;
  /** While the outbox has rows, writing them back is tried this often. */
  retryMs: number;
  /** Told when writing the outbox back fails for another reason than an outage (it is tried again all the same). */
  onReplayError?: (error: unknown) => void;
}

export const LEDGER_OUTAGE_DEFAULTS = { commitTimeoutMs: 5_000, retryMs: 1_000 } as const;

/**
 * Group commit for the ledger. While the database answers, every caller
 * waits until its own row is committed (so a finished generation is never
 * unrecorded), but rows go together: a write starts at the end of the
 * event-loop turn in which its first row arrived (so the generations finished
 * by one turn's I/O share it), and the rows that arrive while one
 * transaction runs go into the next. Under load one transaction carries many
 * generations; alone, a row waits one turn.
 *
 * With an outage setting, a write that fails because the database cannot be
 * reached (or does not answer in time) puts its rows in the outbox instead,
 * durably, and its callers go on; so do the rows that come after, without
 * trying the database, until writing the outbox back succeeds: then rows are
 * committed again and the outbox empties in the background. A row that
 * reached the database and also the outbox is billed once (the replay skips
 * it).
 */
export class LedgerWriter {
  private queue: Pending[] = [];
  private writing = false;
  private scheduled = false;
  /** The database failed: rows go to the outbox until writing it back succeeds. */
  private away = false;
  private retry: NodeJS.Timeout | undefined;
  /** The batch being committed, and since when (epoch ms): the watchdog gives up on it past the commit timeout. */
  private committing: Pending[] | undefined;
  private committingSince = 0;
  /** A drain loop stops when this moves on: the watchdog gave up on its commit and started another. */
  private generation = 0;
  private watchdog: NodeJS.Timeout | undefined;

  private readonly maxBatch: number;
  private readonly outage: LedgerOutage | undefined;

  constructor(
    private readonly writeBatch: WriteGenerations,
    private readonly clock: Clock,
    options: { maxBatch?: number; outage?: LedgerOutage } = {},
  ) {
    this.maxBatch = options.maxBatch ?? 256;
    const { outage } = options;
    this.outage = outage;
    if (!outage) return;
    // Rows a previous run left in the outbox (it stopped while the database was away) are written back now.
    if (outage.outbox.rows > 0) this.scheduleReplay(0);
    // One timer for all commits, not one each: a commit costs no more than a clock read.
    this.watchdog = setInterval(() => this.giveUpOnLateCommit(), Math.max(10, outage.commitTimeoutMs / 5));
    this.watchdog.unref();
  }

  record(row: GenerationRecord, content?: GenerationContentRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, content, resolve, reject });
      if (this.writing || this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.drain());
    });
  }

  /** Whether rows are going to the outbox because the database is away. */
  get databaseAway(): boolean {
    return this.away;
  }

  /** Stops trying to write the outbox back; its rows stay in its file for the next run. */
  close(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
    clearInterval(this.watchdog);
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    this.writing = true;
    const generation = this.generation;
    try {
      while (this.queue.length > 0 && generation === this.generation) {
        const batch = this.queue.splice(0, this.maxBatch);
        await (this.away ? this.park(batch) : this.write(batch));
      }
    } finally {
      if (generation === this.generation) this.writing = false;
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    this.committing = batch;
    this.committingSince = Date.now();
    try {
      await this.writeBatch(
        batch.map((p) => p.row),
        this.clock(),
        batch.flatMap((p) => (p.content ? [p.content] : [])),
      );
      // Given up on meanwhile: its rows went to the outbox (which skips them, now that they are in the database).
      if (this.committing !== batch) return;
      for (const p of batch) p.resolve();
    } catch (error) {
      if (this.committing !== batch) return;
      if (this.outage && isDatabaseUnavailable(error)) {
        this.goAway();
        return this.park(batch);
      }
      if (batch.length === 1) return batch[0]!.reject(error);
      // One bad row must not sink the others: write them one by one.
      for (const p of batch) await this.write([p]);
    } finally {
      if (this.committing === batch) this.committing = undefined;
    }
  }

  private goAway(): void {
    this.away = true;
    this.scheduleReplay(this.outage!.retryMs);
  }

  /**
   * A commit unanswered past the commit timeout is taken for an outage (a
   * cut no socket error reports): its rows go to the outbox, and a new drain
   * takes the rows waiting behind it. Should it commit after all, its rows are
   * in the database and in the outbox both: the replay skips them.
   */
  private giveUpOnLateCommit(): void {
    const batch = this.committing;
    if (!batch || Date.now() - this.committingSince < this.outage!.commitTimeoutMs) return;
    this.committing = undefined;
    this.generation++;
    this.writing = false;
    this.goAway();
    void this.park(batch);
    if (this.queue.length > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.drain());
    }
  }

  /**
   * The batch goes to the outbox; its callers are answered once it is there
   * (or fail, when the outbox cannot take it). The outbox keeps what is
   * billed: a row's stored content is not kept through an outage.
   */
  private async park(batch: Pending[]): Promise<void> {
    try {
      await this.outage!.outbox.append(batch.map((p) => p.row));
      for (const p of batch) p.resolve();
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  private scheduleReplay(delayMs: number): void {
    if (this.retry) return;
    this.retry = setTimeout(() => void this.replay(), delayMs);
    this.retry.unref();
  }

  /**
   * Writes the outbox back. Its first batch tells whether the database is
   * back (an empty outbox still makes a transaction): from then on new rows
   * are committed again while the rest of the outbox follows.
   */
  private async replay(): Promise<void> {
    this.retry = undefined;
    const { outbox, writeOnce, retryMs, onReplayError } = this.outage!;
    const writeBack = async (rows: readonly GenerationRecord[], now: Date) => {
      await writeOnce(rows, now);
      this.away = false;
    };
    try {
      if (outbox.rows === 0) await writeBack([], this.clock());
      await outbox.replay(writeBack, this.clock);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) onReplayError?.(error);
      this.scheduleReplay(retryMs);
    }
  }
}
