import { randomBytes } from 'node:crypto';
import { claimDueVideoJobs } from '../store/repositories/video-jobs.js';
import { PeriodicTask } from '../util/periodic-task.js';
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
  private readonly task: PeriodicTask;

  constructor(
    private readonly services: VideoServices,
    private readonly options: PollerOptions,
  ) {
    this.task = new PeriodicTask((signal) => this.tick(signal), { everyMs: options.tickMs, onError: options.onError });
  }

  start(): void {
    this.task.start();
  }

  /** Looks for due jobs now (a job was just submitted) rather than at the next tick. */
  wake(): void {
    this.task.wake();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  private async tick(signal: AbortSignal): Promise<void> {
    const now = this.services.clock();
    const token = randomBytes(12).toString('hex');
    const jobs = await claimDueVideoJobs(this.services.db, {
      token,
      now,
      leaseUntil: new Date(now.getTime() + this.options.leaseMs),
      limit: this.options.batch,
    });
    await Promise.all(jobs.map((job) => pollJob(this.services, job, token, signal).catch(this.options.onError)));
  }
}
