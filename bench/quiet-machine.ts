import { setTimeout as sleep } from 'node:timers/promises';
import { coreBusySeconds, cpuSeconds } from './proc-stats.js';

export interface MachineState {
  /** Other processes' CPU over the last 2 s before going on, in cores. */
  othersBusy: number | undefined;
  waitedSeconds: number;
  quiet: boolean;
}

const WINDOW_SECONDS = 2;

/**
 * On a shared machine, other work distorts every figure: wait (at most
 * `maxWaitSeconds`) until processes other than `ownPids` use less than
 * `threshold` of a core, then go on anyway and let the report say how busy it was.
 */
export async function waitForQuietMachine(
  maxWaitSeconds: number,
  ownPids: number[],
  say: (m: string) => void,
  threshold = 0.1,
): Promise<MachineState> {
  const start = performance.now();
  const busy = () => {
    const cores = coreBusySeconds();
    const own = ownPids.map(cpuSeconds);
    if (!cores || own.some((s) => s === undefined)) return undefined;
    return cores.reduce((a, b) => a + b, 0) - own.reduce<number>((a, b) => a + (b ?? 0), 0);
  };
  let warned = false;
  for (;;) {
    const before = busy();
    await sleep(WINDOW_SECONDS * 1_000);
    const after = busy();
    const waitedSeconds = (performance.now() - start) / 1_000;
    if (before === undefined || after === undefined) return { othersBusy: undefined, waitedSeconds, quiet: true };
    const othersBusy = Math.max(0, after - before) / WINDOW_SECONDS;
    const quiet = othersBusy < threshold;
    if (quiet || waitedSeconds >= maxWaitSeconds) {
      if (!quiet) say(`still busy after ${Math.round(waitedSeconds)} s (${Math.round(othersBusy * 100)}% of a core): going on`);
      return { othersBusy, waitedSeconds, quiet };
    }
    if (!warned) say(`other processes use ${Math.round(othersBusy * 100)}% of a core; waiting up to ${maxWaitSeconds} s for quiet`);
    warned = true;
  }
}
