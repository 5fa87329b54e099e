import type { SandboxLimits } from './sandbox-limits.js';

/** Where a container's work directory is inside the sandbox (OpenAI's code interpreter has it there too). */
export const SANDBOX_WORK_DIR = '/mnt/data';

/** bubblewrap's own processes (its outer and inner halves), which RLIMIT_NPROC counts beside the run's. */
const BWRAP_PROCESSES = 3;

/** The sandbox's own /tmp, in memory. */
const TMP_BYTES = 16 * 1024 ** 2;

export interface SandboxCommand {
  /** bubblewrap's path. */
  bwrap: string;
  /** The Python interpreter's path (under /usr, the only tree of the host the sandbox sees). */
  python: string;
  /** The container's work directory on the host, the only writable place. */
  workDir: string;
  limits: SandboxLimits;
  /** Bytes the container's files hold before the run: a file may grow to what is left. */
  usedBytes: number;
}

/**
 * The argv that runs Python on the code read from stdin: prlimit's caps
 * (CPU, address space, file size, processes), then bubblewrap with every
 * namespace unshared (no network, no other process, no host name), a
 * read-only /usr, fresh /proc, /dev and /tmp, the work directory as the one
 * writable host path, and an empty environment; nothing else of the host
 * (the gateway's files, /root, /tmp, /etc) is mounted.
 */
export function sandboxArgv(command: SandboxCommand): string[] {
  const { limits } = command;
  const fileBytes = Math.max(0, limits.diskBytes - command.usedBytes);
  return [
    `--cpu=${limits.cpuSeconds}`,
    `--as=${limits.memoryBytes}`,
    `--fsize=${fileBytes}`,
    `--nproc=${limits.processes + BWRAP_PROCESSES}`,
    '--core=0',
    '--',
    command.bwrap,
    '--unshare-all',
    '--unshare-user',
    // No namespace of its own inside: the caps and the mounts stay as they are.
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin:/bin',
    '--setenv',
    'HOME',
    SANDBOX_WORK_DIR,
    '--setenv',
    'LANG',
    'C.UTF-8',
    '--setenv',
    'PYTHONDONTWRITEBYTECODE',
    '1',
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--symlink',
    'usr/bin',
    '/bin',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    // A small /tmp in memory, as many libraries expect one; what lasts goes in the work directory.
    '--size',
    String(TMP_BYTES),
    '--tmpfs',
    '/tmp',
    '--bind',
    command.workDir,
    SANDBOX_WORK_DIR,
    '--chdir',
    SANDBOX_WORK_DIR,
    command.python,
    '-I',
    '-',
  ];
}
