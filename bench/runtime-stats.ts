// The gateway's event-loop delay and garbage-collection pauses over a phase, read from its own GET /metrics (the
// process metrics of prom-client: its event-loop histogram starts again at each scrape, its GC histogram counts on).
import { EVENT_LOOP_SAMPLE_MS } from '../src/observability/metrics/process-metrics.js';

/** What one scrape says: the event-loop delays since the previous scrape (beyond the sampling interval), and the GC pauses since the start. */
interface RuntimeSample {
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  gcSeconds: number;
  gcPauses: number;
}

/** The gateway's runtime over a phase: how long the event loop was held up, and what the collector paused it for. */
export interface RuntimeStats {
  loopP50Ms: number;
  loopP99Ms: number;
  loopMaxMs: number;
  gcPauses: number;
  gcMs: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? ([0-9.eE+-]+|NaN)$/;

/** The text format's samples of the names asked for, summed over their labels. */
function sums(text: string, names: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = SAMPLE.exec(line);
    if (!match || !names.includes(match[1]!)) continue;
    out.set(match[1]!, (out.get(match[1]!) ?? 0) + Number(match[3]));
  }
  return out;
}

const NAMES = [
  'nodejs_eventloop_lag_p50_seconds',
  'nodejs_eventloop_lag_p99_seconds',
  'nodejs_eventloop_lag_max_seconds',
  'nodejs_gc_duration_seconds_sum',
  'nodejs_gc_duration_seconds_count',
] as const;

/** One scrape of the gateway's metrics; undefined when they cannot be read (a build without them, say). */
export async function sampleRuntime(origin: string): Promise<RuntimeSample | undefined> {
  try {
    const response = await fetch(`${origin}/metrics`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return undefined;
    const found = sums(await response.text(), NAMES);
    if (!found.has('nodejs_eventloop_lag_p99_seconds')) return undefined;
    // The GC histogram has no series before the first collection it saw.
    const get = (name: (typeof NAMES)[number]) => found.get(name) ?? 0;
    const delayMs = (name: (typeof NAMES)[number]) => Math.max(0, get(name) * 1e3 - EVENT_LOOP_SAMPLE_MS);
    return {
      loopP50Ms: delayMs('nodejs_eventloop_lag_p50_seconds'),
      loopP99Ms: delayMs('nodejs_eventloop_lag_p99_seconds'),
      loopMaxMs: delayMs('nodejs_eventloop_lag_max_seconds'),
      gcSeconds: get('nodejs_gc_duration_seconds_sum'),
      gcPauses: get('nodejs_gc_duration_seconds_count'),
    };
  } catch {
    return undefined;
  }
}

/** The phase's figures from a scrape at its start (which restarts the event-loop histogram) and one at its end. */
export function runtimeBetween(start: RuntimeSample | undefined, end: RuntimeSample | undefined): RuntimeStats | undefined {
  if (!start || !end) return undefined;
  return {
    loopP50Ms: end.loopP50Ms,
    loopP99Ms: end.loopP99Ms,
    loopMaxMs: end.loopMaxMs,
    gcPauses: end.gcPauses - start.gcPauses,
    gcMs: (end.gcSeconds - start.gcSeconds) * 1e3,
  };
}
