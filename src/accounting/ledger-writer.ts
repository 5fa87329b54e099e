import type { Clock } from '../util/clock.js';
import type { GenerationRecord } from './record-generation.js';

/** Commits a batch of rows in one transaction (recordGenerations over a database). */
export type WriteGenerations = (rows: readonly GenerationRecord[], now: Date) => Promise<void>;

interface Pending {
  row: GenerationRecord;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the ledger. Every caller still waits until its own row is
 * committed (so a finished generation is never unrecorded), but rows go
 * together: a write starts at the end of the event-loop turn in which its first
 * row arrived (so the generations finished by one turn's I/O share it), and the
 * rows that arrive while one transaction runs go into the next. Under load one
 * transaction carries many generations; alone, a row waits one turn.
 */
export class LedgerWriter {
  private queue: Pending[] = [];
  private writing = false;
  private scheduled = false;

  constructor(
    private readonly writeBatch: WriteGenerations,
    private readonly clock: Clock,
    private readonly maxBatch = 256,
  ) {}

  record(row: GenerationRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      if (this.writing || this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.maxBatch);
        await this.write(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      await this.writeBatch(batch.map((p) => p.row), this.clock());
      for (const p of batch) p.resolve();
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // One bad row must not sink the others: write them one by one.
      for (const p of batch) await this.write([p]);
    }
  }
}
