import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { sandboxArgv } from './bwrap-args.js';
import type { SandboxLimits } from './sandbox-limits.js';
import { sweepOverCap, type TreeEntry, treeOf } from './work-tree.js';

/** The programs a sandbox runs (CONTAINERS_BWRAP, CONTAINERS_PYTHON; prlimit is util-linux's). */
export interface SandboxPrograms {
  bwrap: string;
  python: string;
  prlimit: string;
}

export const SANDBOX_PROGRAMS: SandboxPrograms = { bwrap: '/usr/bin/bwrap', python: '/usr/bin/python3', prlimit: '/usr/bin/prlimit' };

export interface SandboxRunRequest {
  /** The container's work directory on the host; it exists. */
  workDir: string;
  code: string;
  /**
   * The host user the run is, when the gateway is root (a per-container one, so that RLIMIT_NPROC, which root
   * is exempt from, counts the run's processes alone); the gateway's own user otherwise.
   */
  uid?: number;
  /** A smaller disk cap than the sandbox's for this run (what the workspace's storage quota leaves). */
  diskBytes?: number;
  signal?: AbortSignal;
}

export interface SandboxRun {
  stdout: string;
  stderr: string;
  /** The interpreter's exit code, or null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The wall-clock limit ended it. */
  timedOut: boolean;
  /** stdout or stderr went past the output cap. */
  truncated: boolean;
  /** Its files went past the disk cap: those it wrote were removed. */
  diskExceeded: boolean;
  durationMs: number;
  /** The work directory's files after the run. */
  files: TreeEntry[];
}

/** Collects a stream's first `cap` bytes, draining the rest so the writer never blocks. */
function capped(stream: NodeJS.ReadableStream, cap: number): { text: () => string; over: () => boolean } {
  const chunks: Buffer[] = [];
  let kept = 0;
  let over = false;
  stream.on('data', (chunk: Buffer) => {
    if (kept >= cap) {
      over = true;
      return;
    }
    const part = chunk.subarray(0, cap - kept);
    if (part.length < chunk.length) over = true;
    chunks.push(part);
    kept += part.length;
  });
  return { text: () => Buffer.concat(chunks).toString('utf8'), over: () => over };
}

/** Kills the run's whole process group (bubblewrap, and with it the sandbox's namespace). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Why a work directory's parents keep a dropped user from reaching it (bubblewrap opens it as that user), if they do. */
async function unreachableParent(dir: string): Promise<string | undefined> {
  for (let at = dirname(resolve(dir)); ; at = dirname(at)) {
    // One not made yet is made searchable (containers.ts).
    const mode = (await stat(at).catch(() => undefined))?.mode ?? 0o711;
    if ((mode & 0o001) === 0) return `${at} is not searchable by other users (chmod o+x), which the sandbox's user needs`;
    if (at === dirname(at)) return undefined;
  }
}

/**
 * Runs Python code in an isolated process (bwrap-args.ts) with the given
 * caps. The wall-clock limit (and an aborted signal) kills the whole process
 * group; stdout and stderr are kept up to the output cap. After the run, a
 * work directory past the disk cap loses the files the run wrote.
 */
export class Sandbox {
  constructor(
    private readonly programs: SandboxPrograms,
    readonly limits: SandboxLimits,
  ) {}

  /** Why this machine cannot run sandboxed code (bubblewrap or Python missing), or undefined when it can. */
  async unavailable(workRoot?: string): Promise<string | undefined> {
    for (const [what, path] of Object.entries(this.programs)) {
      try {
        await access(path, constants.X_OK);
      } catch {
        return `${what} is not installed at ${path}${what === 'bwrap' ? ' (Debian package bubblewrap)' : ''}`;
      }
    }
    if (workRoot !== undefined && process.getuid?.() === 0) return unreachableParent(resolve(workRoot, 'x'));
    return undefined;
  }

  async run(request: SandboxRunRequest): Promise<SandboxRun> {
    const started = Date.now();
    const limits = { ...this.limits, diskBytes: Math.min(this.limits.diskBytes, request.diskBytes ?? Number.POSITIVE_INFINITY) };
    const before = await treeOf(request.workDir);
    const usedBytes = before.reduce((sum, f) => sum + f.bytes, 0);
    const argv = sandboxArgv({ ...this.programs, workDir: request.workDir, limits, usedBytes });
    const child = spawn(this.programs.prlimit, argv, {
      // Nothing of the gateway's environment reaches the sandbox (bubblewrap clears its own too).
      env: {},
      cwd: '/',
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so that the whole of it can be killed.
      detached: true,
      ...(request.uid !== undefined ? { uid: request.uid, gid: request.uid } : {}),
    });
    const stdout = capped(child.stdout, this.limits.outputBytes);
    const stderr = capped(child.stderr, this.limits.outputBytes);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, this.limits.wallMs);
    const onAbort = () => killGroup(child);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdin.on('error', () => undefined);
    child.stdin.end(request.code);
    const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done, fail) => {
      child.once('error', fail);
      child.once('close', (code, sig) => done([code, sig]));
    }).finally(() => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      // Whatever it left behind (a process that escaped its session) goes with its group.
      killGroup(child);
    });
    const after = await treeOf(request.workDir);
    const swept = await sweepOverCap(request.workDir, before, after, limits.diskBytes);
    return {
      stdout: stdout.text(),
      stderr: stderr.text(),
      exitCode,
      signal,
      timedOut,
      truncated: stdout.over() || stderr.over(),
      diskExceeded: swept !== undefined,
      durationMs: Date.now() - started,
      files: swept ?? after,
    };
  }
}
