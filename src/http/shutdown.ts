import { setMaxListeners } from 'node:events';

/** The reason a request's signal carries when the gateway stops, not its client: its work ends in an answer. */
export const SHUTTING_DOWN = Symbol('the gateway is shutting down');

/**
 * The stop of one process. Paid requests `hold` it while they run, so that a
 * stop closes the database only after their ledger rows are written; at the
 * drain deadline `interrupt` aborts what is still running, which then ends
 * as an answer (a stream with its error chunk and [DONE]) rather than cut.
 */
export class Shutdown {
  private readonly controller = new AbortController();
  private running = 0;
  private waiters: (() => void)[] = [];

  constructor() {
    // Every request in flight listens to it.
    setMaxListeners(0, this.controller.signal);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await work();
    } finally {
      if (--this.running === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  interrupt(): void {
    this.controller.abort(SHUTTING_DOWN);
  }

  /** Resolves when nothing holds the stop, or after `timeoutMs`, whichever comes first. */
  idle(timeoutMs: number): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
