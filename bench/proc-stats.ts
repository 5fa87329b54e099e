import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** CPU time and memory from Linux's /proc; undefined where there is no /proc. */

const CLOCK_TICKS_PER_SECOND = (() => {
  const n = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim());
  return Number.isInteger(n) && n > 0 ? n : 100;
})();

/** User plus system CPU seconds a process has used so far. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields from the ")" that closes it; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * Seconds each core has spent running processes so far (user, nice and
 * system time), whoever they belong to: compared with the CPU time of the
 * benchmark's own processes, it shows how much other work on a shared machine
 * took. Interrupt time is left out: it is mostly the loopback network work of
 * the processes pinned to that core, which their own CPU time does not include.
 */
export function coreBusySeconds(): number[] | undefined {
  try {
    const lines = readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .filter((line) => /^cpu\d+ /.test(line));
    return lines.map((line) => {
      const [user = 0, nice = 0, system = 0] = line.trim().split(/\s+/).slice(1, 4).map(Number);
      return (user + nice + system) / CLOCK_TICKS_PER_SECOND;
    });
  } catch {
    return undefined;
  }
}

export interface Memory {
  rssMb: number;
  /** VmHWM: the highest resident set size since the process started. */
  peakRssMb: number;
}

export function memory(pid: number): Memory | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}
