import { randomBytes } from 'node:crypto';
import { claimDueVideoJobs } from '../store/repositories/video-jobs.js';
import { pollJob } from './poll-job.js';
import type { VideoServices } from './video-services.js';

export interface PollerOptions {
  /** Between looks for due jobs. */
  tickMs: number;
  /** How long a claimed job is this instance's; a dead instance's jobs return after it. */
  leaseMs: number;
  /** Jobs claimed per look. */
  batch: number;
  onError: (error: unknown) => void;
}

/**
 * Advances every running job of the database, whichever instance took it:
 * each tick claims due jobs (see claimDueVideoJobs) and polls them. Started
 * and stopped with the server; stop() waits for the tick in progress.
 */
export class VideoPoller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly services: VideoServices,
    private readonly options: PollerOptions,
  ) {}

  start(): void {
    if (this.stopping.signal.aborted || this.timer) return;
    this.schedule(0);
  }

  /** Looks for due jobs now (a job was just submitted) rather than at the next tick. */
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
      this.running = this.tick()
        .catch(this.options.onError)
        .finally(() => {
          this.running = undefined;
          if (!this.stopping.signal.aborted) this.schedule(this.options.tickMs);
        });
    }, ms);
  }

  private async tick(): Promise<void> {
    const now = this.services.clock();
    const token = randomBytes(12).toString('hex');
    const jobs = await claimDueVideoJobs(this.services.db, {
      token,
      now,
      leaseUntil: new Date(now.getTime() + this.options.leaseMs),
      limit: this.options.batch,
    });
    await Promise.all(jobs.map((job) => pollJob(this.services, job, token, this.stopping.signal).catch(this.options.onError)));
  }
}
