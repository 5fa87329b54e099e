import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The gateway gets a core of its own; the simulator and the load generators share the other. */
export const GATEWAY_CORE = 0;
export const LOAD_CORE = 1;

export interface Pinning {
  enabled: boolean;
  /** Why, for the report: figures from an unpinned run are not comparable. */
  note: string;
}

export function detectPinning(): Pinning {
  if (process.platform !== 'linux') return { enabled: false, note: `unpinned (${process.platform} has no taskset)` };
  const cores = availableParallelism();
  if (cores < 2) return { enabled: false, note: `unpinned (only ${cores} core)` };
  const probe = spawnSync('taskset', ['-c', `${GATEWAY_CORE},${LOAD_CORE}`, 'true'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) return { enabled: false, note: 'unpinned (taskset is not available)' };
  return { enabled: true, note: `gateway on core ${GATEWAY_CORE}; simulator and load on core ${LOAD_CORE} (taskset)` };
}

/** The command line that runs `command args` on one core, or as is when pinning is not possible. */
export function pinned(pinning: Pinning, core: number, command: string, args: string[]): { command: string; args: string[] } {
  return pinning.enabled ? { command: 'taskset', args: ['-c', String(core), command, ...args] } : { command, args };
}
