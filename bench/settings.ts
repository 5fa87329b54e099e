/** How long and how hard the benchmark runs; read once from the environment. */
export interface BenchSettings {
  /** BENCH_QUICK=1: short phases, for smoke-checking the harness itself. */
  quick: boolean;
  /** BENCH_PROFILE=1: the gateway runs under `node --cpu-prof`. */
  profile: boolean;
  /** Server warm-up before the first phase. */
  warmupSeconds: number;
  /** Each load process's own warm-up, discarded, before it measures. */
  loadWarmupSeconds: number;
  phaseSeconds: number;
  /** BENCH_SOAK_SECONDS: the memory soak through the gateway. */
  soakSeconds: number;
  concurrency: number;
  openLoopRate: number;
  /** Connections the open-loop generator may open: enough that it never waits for one. */
  openLoopConnections: number;
  streams: number;
  streamConcurrency: number;
  /** BENCH_WORKSPACE_ROUNDS: closed-loop rounds of each case of the workspace comparison (nothing, budgets, destinations). */
  workspaceRounds: number;
  /** BENCH_QUIET_WAIT: how long to wait for other work on the machine to stop before starting anyway. */
  quietWaitSeconds: number;
  /** BENCH_RETRIES: how many times a phase disturbed by other work on the machine is run again. */
  retries: number;
  /** Other processes' CPU, in cores, above which a phase counts as disturbed. */
  maxOthers: number;
  /** ledger-cost.ts: rows written one a commit, then rows written `ledgerBatch` a commit. */
  ledgerSingleRows: number;
  ledgerBatchRows: number;
  ledgerBatch: number;
}

const positiveNumber = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of seconds (got "${raw}")`);
  return n;
};

const count = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0 (got "${raw}")`);
  return n;
};

const flag = (raw: string | undefined) => raw !== undefined && ['1', 'true', 'yes'].includes(raw.toLowerCase());

export function readBenchSettings(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  const quick = flag(env.BENCH_QUICK);
  return {
    quick,
    profile: flag(env.BENCH_PROFILE),
    warmupSeconds: quick ? 1 : 3,
    loadWarmupSeconds: quick ? 0.5 : 1,
    phaseSeconds: quick ? 3 : 10,
    soakSeconds: positiveNumber('BENCH_SOAK_SECONDS', env.BENCH_SOAK_SECONDS) ?? (quick ? 10 : 60),
    concurrency: 64,
    openLoopRate: 1_000,
    openLoopConnections: 128,
    streams: quick ? 64 : 200,
    streamConcurrency: 8,
    workspaceRounds: count('BENCH_WORKSPACE_ROUNDS', env.BENCH_WORKSPACE_ROUNDS) ?? (quick ? 1 : 3),
    quietWaitSeconds: positiveNumber('BENCH_QUIET_WAIT', env.BENCH_QUIET_WAIT) ?? (quick ? 4 : 60),
    retries: count('BENCH_RETRIES', env.BENCH_RETRIES) ?? (quick ? 0 : 2),
    maxOthers: 0.1,
    ledgerSingleRows: quick ? 500 : 3_000,
    ledgerBatchRows: quick ? 2_000 : 20_000,
    ledgerBatch: 20,
  };
}
