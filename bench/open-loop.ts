import { type Dispatcher, Pool } from 'undici';
import { POOL_TIMEOUTS, requestOptions } from './http-target.js';
import type { Mark } from './load-main.js';
import type { OpenLoopResult, OpenLoopSpec } from './load-types.js';
import { summarize } from './summarize.js';

interface Schedule {
  latencies: number[];
  lags: number[];
  errors: number;
  non2xx: number;
  /** Completed requests per second, from the first due time to the last reply. */
  achievedRate: number;
}

/**
 * Sends `rate × seconds` requests on a clock: request i is due at
 * start + i/rate, whatever the replies are doing, and its latency counts from
 * that due time. A slow reply therefore cannot delay (and hide) the requests
 * behind it — the coordinated omission a closed loop, or autocannon's bursty
 * `-R`, suffers from.
 */
async function runSchedule(pool: Pool, options: Dispatcher.RequestOptions, rate: number, seconds: number): Promise<Schedule> {
  const total = Math.round(rate * seconds);
  const intervalMs = 1_000 / rate;
  const out: Schedule = { latencies: [], lags: [], errors: 0, non2xx: 0, achievedRate: 0 };
  let settled = 0;
  let lastDoneAt = 0;
  let allSettled: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (allSettled = resolve));

  const send = async (dueAt: number) => {
    out.lags.push(performance.now() - dueAt);
    try {
      const response = await pool.request(options);
      await response.body.arrayBuffer(); // the latency ends at the last byte, not at the headers
      lastDoneAt = performance.now();
      if (response.statusCode === 200) out.latencies.push(lastDoneAt - dueAt);
      else out.non2xx += 1;
    } catch (error) {
      if (out.errors++ === 0) process.stderr.write(`open loop: ${(error as Error).message}\n`);
    } finally {
      if (++settled === total) allSettled();
    }
  };

  const start = performance.now() + 5;
  let next = 0;
  // Timers fire late by up to ~1 ms; everything due by then goes out at once, and the lag is measured, not hidden.
  const tick = () => {
    const now = performance.now();
    for (; next < total && start + next * intervalMs <= now; next++) void send(start + next * intervalMs);
    if (next < total) setTimeout(tick, Math.max(0, start + next * intervalMs - performance.now()));
  };
  setTimeout(tick, 5);
  await finished;
  out.achievedRate = out.latencies.length / ((lastDoneAt - start) / 1_000);
  return out;
}

/** A discarded warm-up at the same rate (a fresh process's JIT and connections), then the measured schedule. */
export async function runOpenLoop(spec: OpenLoopSpec, mark: (m: Mark) => void): Promise<OpenLoopResult> {
  const pool = new Pool(spec.target.origin, { connections: spec.connections, ...POOL_TIMEOUTS });
  const options = requestOptions(spec.target);
  if (spec.warmupSeconds > 0) await runSchedule(pool, options, spec.rate, spec.warmupSeconds);
  mark('start');
  const run = await runSchedule(pool, options, spec.rate, spec.seconds);
  mark('end');
  await pool.close();
  return {
    scheduled: Math.round(spec.rate * spec.seconds),
    completed: run.latencies.length,
    errors: run.errors,
    non2xx: run.non2xx,
    achievedRate: run.achievedRate,
    latency: summarize(run.latencies),
    sendLag: summarize(run.lags),
  };
}
