import { PERCENTILES, type Percentile } from './provider-preferences.js';

/** How many recent requests each endpoint's figures are computed over. */
export const STATS_WINDOW = 100;

/** One served request as the gateway measured it. */
export interface ServedSample {
  /** Request start to end of answer. */
  latencyMs: number;
  /** Request start to first token (a non-streamed answer's first token is its end). */
  ttftMs: number;
  /** Completion tokens per second of generation; absent when nothing was generated. */
  throughput?: number;
}

export type Figures = Record<Percentile | 'mean', number>;

/** Moving figures of an endpoint's last STATS_WINDOW served requests. */
export interface EndpointFigures {
  samples: number;
  latencyMs: Figures;
  ttftMs: Figures;
  throughput?: Figures;
}

interface Window {
  /** Each with when it was served (epoch ms). */
  samples: (ServedSample & { at: number })[];
  /** The figures of `samples`, computed when first asked for after a change. */
  figures?: EndpointFigures;
}

/** Rolling windows of what each endpoint (endpointKey) served; in memory, per instance. */
export class EndpointStats {
  private readonly windows = new Map<string, Window>();

  record(endpoint: string, sample: ServedSample, at: number): void {
    let window = this.windows.get(endpoint);
    if (!window) this.windows.set(endpoint, (window = { samples: [] }));
    window.samples.push({ ...sample, at });
    if (window.samples.length > STATS_WINDOW) window.samples.shift();
    delete window.figures;
  }

  /** How many requests the window holds: cheap, unlike figures. */
  samples(endpoint: string): number {
    return this.windows.get(endpoint)?.samples.length ?? 0;
  }

  figures(endpoint: string): EndpointFigures | undefined {
    const window = this.windows.get(endpoint);
    if (!window?.samples.length) return undefined;
    return (window.figures ??= figuresOf(window.samples));
  }

  /** The figures of the window's requests served at or after `since` (epoch ms); undefined when there is none. */
  figuresSince(endpoint: string, since: number): EndpointFigures | undefined {
    const recent = this.windows.get(endpoint)?.samples.filter((s) => s.at >= since) ?? [];
    return recent.length > 0 ? figuresOf(recent) : undefined;
  }
}

function figuresOf(window: readonly ServedSample[]): EndpointFigures {
  const throughput = window.flatMap((s) => (s.throughput !== undefined ? [s.throughput] : []));
  return {
    samples: window.length,
    latencyMs: summarize(window.map((s) => s.latencyMs)),
    ttftMs: summarize(window.map((s) => s.ttftMs)),
    ...(throughput.length > 0 ? { throughput: summarize(throughput) } : {}),
  };
}

/** Mean and nearest-rank percentiles of a non-empty list. */
export function summarize(values: readonly number[]): Figures {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  const out = { mean: sorted.reduce((s, v) => s + v, 0) / sorted.length } as Figures;
  for (const p of PERCENTILES) out[p] = at(Number(p.slice(1)) / 100);
  return out;
}

/** Generation speed of one answer: completion tokens over the time after the first token. */
export function servedSample(latencyMs: number, ttftMs: number | null | undefined, completionTokens: number | undefined): ServedSample {
  const first = ttftMs ?? latencyMs;
  // A non-streamed answer has no separate generation phase: its whole latency generated it.
  const generationMs = ttftMs != null ? latencyMs - ttftMs : latencyMs;
  return {
    latencyMs,
    ttftMs: first,
    ...(completionTokens && generationMs > 0 ? { throughput: completionTokens / (generationMs / 1000) } : {}),
  };
}
