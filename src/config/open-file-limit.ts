import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The process's soft limit on open files (RLIMIT_NOFILE), or undefined when
 * it is unlimited or cannot be read. Node raises the soft limit to the hard
 * one at start, so this is read from the running process: Linux's
 * /proc/self/limits, else what a shell started by it reports (macOS).
 */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (line) return asLimit(line[1]);
  } catch {
    // No /proc: ask a shell, which inherits this process's limits.
  }
  try {
    return asLimit(execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8', timeout: 2_000 }).trim());
  } catch {
    return undefined;
  }
}

function asLimit(text: string | undefined): number | undefined {
  const limit = Number(text);
  return Number.isInteger(limit) && limit > 0 ? limit : undefined;
}

/** Descriptors kept for everything but connections: the database pool, Redis, log, data and WAL files, workers. */
export const DESCRIPTOR_RESERVE = 64;

/**
 * The most client connections a process with this many descriptors takes:
 * what the reserve leaves, halved, because each client connection may hold
 * an upstream connection of its own while its request runs.
 */
export function connectionCap(openFiles: number): number {
  return Math.max(1, Math.floor((openFiles - DESCRIPTOR_RESERVE) / 2));
}
