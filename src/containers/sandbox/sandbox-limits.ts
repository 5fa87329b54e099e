/** The caps every sandboxed run has (docs/containers.md, "Settings"). */
export interface SandboxLimits {
  /** CPU seconds (RLIMIT_CPU): past them the kernel kills the run. */
  cpuSeconds: number;
  /** Wall-clock milliseconds: past them the run's whole process group is killed. */
  wallMs: number;
  /** Address space in bytes (RLIMIT_AS). */
  memoryBytes: number;
  /** What the container's files may hold together; no single file grows past what is left (RLIMIT_FSIZE). */
  diskBytes: number;
  /** Processes (and threads) the run may have at once (RLIMIT_NPROC), beyond bubblewrap's own. */
  processes: number;
  /** Bytes of stdout and of stderr kept each; the rest is dropped and the output marked truncated. */
  outputBytes: number;
}

export const SANDBOX_DEFAULTS: SandboxLimits = {
  cpuSeconds: 10,
  wallMs: 30_000,
  memoryBytes: 1024 ** 3,
  diskBytes: 100 * 1024 ** 2,
  processes: 32,
  outputBytes: 64 * 1024,
};
