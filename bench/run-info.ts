import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import type { MachineState } from './quiet-machine.js';
import type { RunInfo } from './report.js';

/** What the figures were measured on, so a recorded figure can be told apart from a later one. */
export function runInfo(pinning: string, machine: MachineState): RunInfo {
  const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' });
  const commit = git.status === 0 ? git.stdout.trim() + (dirty.stdout?.trim() ? ' (uncommitted changes)' : '') : 'unknown';
  return {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: availableParallelism(),
    commit,
    pinning,
    machine,
  };
}
