import type { LoadOutput, Mark } from './load-main.js';
import { coreBusySeconds, cpuSeconds } from './proc-stats.js';
import { type RuntimeStats, runtimeBetween, sampleRuntime } from './runtime-stats.js';

/** What each server, and each core, spent during the measured part of a load phase: its cost, to divide by the requests it served. */
export interface Measured<R> {
  result: R;
  wallSeconds: number;
  gatewayCpuSeconds: number | undefined;
  simCpuSeconds: number | undefined;
  /** CPU of the load process itself. */
  loadCpuSeconds: number;
  /** Seconds each core ran processes, anyone's (the machine may be shared). */
  coreBusySeconds: number[] | undefined;
  /** CPU that processes other than the benchmark's used, in cores (0.1 = a tenth of a core on average). */
  others: number | undefined;
  /** How many times the phase ran before an undisturbed (or the least disturbed) attempt; set by the phase runner. */
  attempts: number;
  /** The gateway's event-loop delay and GC pauses over the measured part, when its metrics were read. */
  runtime?: RuntimeStats | undefined;
}

interface Snapshot {
  at: number;
  gateway: number | undefined;
  sim: number | undefined;
  cores: number[] | undefined;
}

const delta = (before: number | undefined, after: number | undefined) =>
  before === undefined || after === undefined ? undefined : after - before;

/**
 * Reads the counters at the load process's start and end marks (or around the whole run, if it sends none), and with
 * `metricsOrigin` the gateway's runtime figures (runtime-stats.ts) at the same marks.
 */
export async function measured<R>(
  pids: { gateway: number; sim: number },
  run: (onMark: (mark: Mark) => void) => Promise<LoadOutput<R>>,
  metricsOrigin?: string,
): Promise<Measured<R>> {
  const snapshot = (): Snapshot => ({
    at: performance.now(),
    gateway: cpuSeconds(pids.gateway),
    sim: cpuSeconds(pids.sim),
    cores: coreBusySeconds(),
  });
  const scrape = () => (metricsOrigin === undefined ? Promise.resolve(undefined) : sampleRuntime(metricsOrigin));
  let before = snapshot();
  let after: Snapshot | undefined;
  let runtimeStart = scrape();
  let runtimeEnd: ReturnType<typeof scrape> | undefined;
  const { result, cpuSeconds: loadCpuSeconds } = await run((mark) => {
    if (mark === 'start') {
      before = snapshot();
      runtimeStart = scrape();
    } else {
      after = snapshot();
      runtimeEnd = scrape();
    }
  });
  after ??= snapshot();
  const runtime = runtimeBetween(await runtimeStart, await (runtimeEnd ?? scrape()));

  const wallSeconds = (after.at - before.at) / 1_000;
  const gatewayCpuSeconds = delta(before.gateway, after.gateway);
  const simCpuSeconds = delta(before.sim, after.sim);
  const b = before.cores;
  const cores = b && after.cores && b.length === after.cores.length ? after.cores.map((a, i) => a - b[i]!) : undefined;
  const others =
    cores === undefined || gatewayCpuSeconds === undefined || simCpuSeconds === undefined
      ? undefined
      : Math.max(0, cores.reduce((x, y) => x + y, 0) - gatewayCpuSeconds - simCpuSeconds - loadCpuSeconds) / wallSeconds;
  return { result, wallSeconds, gatewayCpuSeconds, simCpuSeconds, loadCpuSeconds, coreBusySeconds: cores, others, attempts: 1, runtime };
}

/** Microseconds of CPU per request, or undefined when either figure is unknown. */
export const microsPerRequest = (cpu: number | undefined, requests: number): number | undefined =>
  cpu === undefined || requests === 0 ? undefined : (cpu / requests) * 1e6;

/**
 * The share of one core that processes other than the benchmark's own used
 * during the phase: near 0 on a quiet machine; larger means the figures were disturbed.
 */
export function foreignShare(m: Measured<unknown>, core: number, ownCpuSeconds: (number | undefined)[]): number | undefined {
  const busy = m.coreBusySeconds?.[core];
  if (busy === undefined || ownCpuSeconds.some((s) => s === undefined)) return undefined;
  const own = ownCpuSeconds.reduce<number>((a, b) => a + (b ?? 0), 0);
  return Math.max(0, busy - own) / m.wallSeconds;
}
