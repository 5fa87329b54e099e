import { describe, expect, it } from 'vitest';
import { PeriodicTask } from './periodic-task.js';

describe('PeriodicTask', () => {
  it('runs at start and again after each run, goes on after a failure, and stop() waits for the run in progress', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    let running = 0;
    let overlapped = false;
    let release!: () => void;
    const thirdStarted = new Promise<void>((resolve) => {
      release = resolve;
    });
    let stopSeen: AbortSignal | undefined;
    const task = new PeriodicTask(
      async (signal) => {
        runs++;
        if (running++ > 0) overlapped = true;
        try {
          if (runs === 1) throw new Error('first fails');
          if (runs === 3) {
            release();
            stopSeen = signal;
            await new Promise((resolve) => setTimeout(resolve, 30));
          }
        } finally {
          running--;
        }
      },
      { everyMs: 1, onError: (error) => errors.push(error) },
    );
    task.start();
    await thirdStarted;
    await task.stop();
    expect(stopSeen?.aborted).toBe(true);
    expect(running).toBe(0);
    expect(runs).toBe(3);
    expect(overlapped).toBe(false);
    expect(errors).toEqual([new Error('first fails')]);
    task.start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(runs).toBe(3);
  });
});
