import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoadOutput, Mark } from './load-main.js';
import type { OpenLoopResult, OpenLoopSpec } from './load-types.js';
import type { Pinning } from './pinning.js';
import { memory } from './proc-stats.js';
import type { Processes } from './processes.js';
import { runLoad } from './run-load.js';

export interface RssSample {
  seconds: number;
  rssMb: number;
}

export interface SoakResult {
  load: OpenLoopResult;
  samples: RssSample[];
  /** Length of the first and last windows compared (10 s, or a third of a shorter soak). */
  windowSeconds: number;
  firstWindowMb: number;
  lastWindowMb: number;
  /** Relative growth of the mean from the first window to the last. */
  drift: number;
  /**
   * The lowest RSS of each window: the floor after a collection. The mean
   * swings with the young generation's sawtooth (tens of MB at 1,000
   * requests/s); the floor moves only when retained memory does.
   */
  firstWindowFloorMb: number;
  lastWindowFloorMb: number;
  floorDrift: number;
  /** Least-squares slope of RSS over the whole soak. */
  slopeMbPerMinute: number;
  /**
   * The gateway's heap after a full collection at the soak's start and end
   * (live-heap-probe.mjs): what it retains, apart from how far V8 chose to
   * grow the heap, which moves the RSS floor by ±15 % from run to run.
   */
  liveHeap: { firstMb: number; lastMb: number; drift: number } | undefined;
}

interface LiveHeapLine {
  heapUsedMb: number;
}

/** The probe's lines, once it has written `count` (it answers within a collection's time), or undefined. */
async function liveHeapLines(file: string, count: number): Promise<LiveHeapLine[] | undefined> {
  for (let waited = 0; waited < 5_000; waited += 100) {
    const lines = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];
    if (lines.length >= count) return lines.map((line) => JSON.parse(line) as LiveHeapLine);
    await sleep(100);
  }
  return undefined;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function slope(samples: RssSample[]): number {
  const mx = mean(samples.map((s) => s.seconds));
  const my = mean(samples.map((s) => s.rssMb));
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.seconds - mx) * (s.rssMb - my);
    den += (s.seconds - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 60;
}

/** Fixed-rate load through the gateway while its RSS is sampled every second: is memory flat? */
export async function soak(
  processes: Processes,
  pinning: Pinning,
  gatewayPid: number,
  liveHeapFile: string,
  spec: OpenLoopSpec,
  onMark: (mark: Mark) => void,
): Promise<LoadOutput<SoakResult>> {
  const probe = () => process.kill(gatewayPid, 'SIGUSR2');
  const samples: RssSample[] = [];
  let start = 0;
  let timer: NodeJS.Timeout | undefined;
  const sample = () => {
    const m = memory(gatewayPid);
    if (m) samples.push({ seconds: (performance.now() - start) / 1_000, rssMb: m.rssMb });
  };
  // Sampling covers the measured schedule only, not the load process's start-up and warm-up.
  const mark = (m: Mark) => {
    onMark(m);
    if (m === 'start') {
      probe();
      start = performance.now();
      sample();
      timer = setInterval(sample, 1_000);
    } else {
      clearInterval(timer);
      sample();
      probe();
    }
  };
  try {
    const { result: load, cpuSeconds } = await runLoad(processes, pinning, 'load-open.ts', spec, mark);
    const end = samples.at(-1)?.seconds ?? 0;
    const windowSeconds = Math.min(10, spec.seconds / 3);
    const first = samples.filter((s) => s.seconds <= windowSeconds).map((s) => s.rssMb);
    const last = samples.filter((s) => s.seconds >= end - windowSeconds).map((s) => s.rssMb);
    const firstWindowMb = mean(first);
    const lastWindowMb = mean(last);
    const heaps = await liveHeapLines(liveHeapFile, 2);
    const firstWindowFloorMb = Math.min(...first);
    const lastWindowFloorMb = Math.min(...last);
    const result: SoakResult = {
      load,
      samples,
      windowSeconds,
      firstWindowMb,
      lastWindowMb,
      drift: (lastWindowMb - firstWindowMb) / firstWindowMb,
      firstWindowFloorMb,
      lastWindowFloorMb,
      floorDrift: (lastWindowFloorMb - firstWindowFloorMb) / firstWindowFloorMb,
      slopeMbPerMinute: slope(samples),
      liveHeap: heaps && {
        firstMb: heaps[0]!.heapUsedMb,
        lastMb: heaps.at(-1)!.heapUsedMb,
        drift: (heaps.at(-1)!.heapUsedMb - heaps[0]!.heapUsedMb) / heaps[0]!.heapUsedMb,
      },
    };
    return { result, cpuSeconds };
  } finally {
    clearInterval(timer);
  }
}
