/** The contract between the orchestrator and the load processes: a JSON spec in argv[2], a JSON result on stdout. */

/** One HTTP endpoint under test: the simulator directly, or the gateway in front of it. */
export interface HttpTarget {
  origin: string;
  path: string;
  authorization: string;
  /** The JSON request body, as sent. */
  body: string;
}

/** Latency percentiles in milliseconds. */
export interface Summary {
  count: number;
  mean: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface ClosedLoopSpec {
  target: HttpTarget;
  connections: number;
  seconds: number;
  /** Run first and discarded: a fresh load process's JIT and connection set-up are not the server's cost. */
  warmupSeconds: number;
}

export interface ClosedLoopResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

export interface OpenLoopSpec {
  target: HttpTarget;
  rate: number;
  seconds: number;
  connections: number;
  /** Run first, at the same rate, and discarded. */
  warmupSeconds: number;
}

export interface OpenLoopResult {
  scheduled: number;
  completed: number;
  errors: number;
  non2xx: number;
  /** Completed requests per second of the schedule's length. */
  achievedRate: number;
  /** From each request's scheduled send time to the last byte of its response. */
  latency: Summary;
  /** How late the generator itself sent each request: its own timer jitter, included in `latency`. */
  sendLag: Summary;
}

export interface StreamSpec {
  target: HttpTarget;
  streams: number;
  concurrency: number;
  /** Streams run first and discarded. */
  warmupStreams: number;
}

export interface StreamResult {
  completed: number;
  errors: number;
  /** From sending the request to the first byte of the response body (the first SSE event). */
  firstByte: Summary;
  /** From sending the request to the end of the stream. */
  whole: Summary;
}

export interface LedgerCostSpec {
  /** The gateway's database after the load phases: one of its own successful rows is the sample written. */
  gatewayDatabase: string;
  /** A fresh SQLite file to write into. */
  file: string;
  /** Rows written one per transaction, as a lightly loaded gateway commits them. */
  singleRows: number;
  /** Rows written `batch` per transaction, as a busy gateway's group commit does. */
  batchRows: number;
  batch: number;
}

/** CPU µs per ledger row, all of the process's threads (the WAL checkpoint worker included). */
export interface LedgerCostResult {
  singleRowMicros: number;
  batchRowMicros: number;
  batch: number;
}
