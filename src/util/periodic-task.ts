/**
 * Work run now and then every `everyMs` after the previous run ended (runs
 * never overlap), until stop(), which waits for the run in progress. A run's
 * failure goes to `onError` and the next run is still scheduled. The signal
 * a run is given aborts at stop().
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly run: (signal: AbortSignal) => Promise<void>,
    private readonly options: { everyMs: number; onError: (error: unknown) => void },
  ) {}

  start(): void {
    if (this.stopping.signal.aborted || this.timer) return;
    this.schedule(0);
  }

  /** Runs now rather than at the next tick, unless a run is in progress. */
  wake(): void {
    if (this.stopping.signal.aborted || !this.timer || this.running) return;
    clearTimeout(this.timer);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.running = this.run(this.stopping.signal)
        .catch(this.options.onError)
        .finally(() => {
          this.running = undefined;
          if (!this.stopping.signal.aborted) this.schedule(this.options.everyMs);
        });
    }, ms);
  }
}
