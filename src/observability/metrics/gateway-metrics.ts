import { Counter, Gauge, Histogram, Registry } from 'prom-client';

type HistogramChild = ReturnType<Histogram['labels']>;

/**
 * One series of a counter, counted as a plain number on the hot path and added to prom-client's
 * counter when it is scraped: an inc() of a prom-client child hashes its labels each time (about a
 * microsecond, several times a request).
 */
class Tally {
  value = 0;
  private published = 0;

  constructor(private readonly labels: Record<string, string>) {}

  add(amount = 1): void {
    this.value += amount;
  }

  publish(counter: Counter): void {
    if (this.value === this.published) return;
    counter.inc(this.labels, this.value - this.published);
    this.published = this.value;
  }
}

/** A counter whose series are tallies, kept by a key made of their label values. */
class TalliedCounter<L extends string> {
  private readonly tallies = new Map<string, Tally>();

  constructor(options: { name: string; help: string; labelNames: readonly L[]; registers: Registry[] }) {
    const tallies = this.tallies;
    // Registered with `registers`, which read it at each scrape: no reference is kept here.
    new Counter<L>({
      ...options,
      collect() {
        for (const tally of tallies.values()) tally.publish(this as Counter);
      },
    });
  }

  /** The series of these label values (in labelNames' order), made once. */
  series(key: string, labels: () => Record<L, string>): Tally {
    let tally = this.tallies.get(key);
    if (!tally) this.tallies.set(key, (tally = new Tally(labels())));
    return tally;
  }
}

/** The series of one model served by one provider: looked up once per run, not once per figure. */
interface ModelSeries {
  inputTokens: Tally;
  outputTokens: Tally;
  cachedTokens: Tally;
  reasoningTokens: Tally;
  cost: Tally;
  ttft: HistogramChild;
  attempts: Map<string, Tally>;
}

/** What the endpoint-health gauge reads at each scrape: every endpoint of the catalog, healthy or not. */
export type HealthSource = () => Iterable<{ model: string; provider: string; healthy: boolean }>;

/** What the ledger gauges read at each scrape. */
export interface LedgerSource {
  outboxRows(): number;
  databaseAway(): boolean;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
/** The gateway's own share is counted in milliseconds, not seconds. */
const OVERHEAD_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const TTFT_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
const LEDGER_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

/**
 * The gateway's Prometheus metrics, in a registry of this app's own (several apps in one process never
 * share a series). Series are kept once made: the hot path does a Map lookup per request or run, then
 * adds to plain numbers (counters, published when scraped) or observes a histogram's child.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requestsInFlight: Gauge;
  readonly streamsInFlight: Gauge;
  private readonly requests: TalliedCounter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;
  private readonly overhead: Histogram<'route'>;
  private readonly attempts: TalliedCounter<'model' | 'provider' | 'outcome'>;
  private readonly ttft: Histogram<'model' | 'provider'>;
  private readonly tokens: TalliedCounter<'model' | 'provider' | 'type'>;
  private readonly cost: TalliedCounter<'model' | 'provider'>;
  private readonly reservations: TalliedCounter<'outcome'>;
  private readonly refusals: TalliedCounter<'code'>;
  private readonly ledgerWrite: Histogram;
  private readonly requestSeries = new Map<string, { count: Tally; duration: HistogramChild }>();
  private readonly overheadSeries = new Map<string, HistogramChild>();
  private readonly modelSeries = new Map<string, ModelSeries>();
  private health: HealthSource = () => [];
  private ledger: LedgerSource | undefined;

  constructor() {
    const registers = [this.registry];
    this.requests = new TalliedCounter({
      name: 'gateway_http_requests_total',
      help: 'Requests answered, by route pattern and status (499: the client left first)',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: "Time from a request's arrival to the end of its answer (a stream's last byte)",
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.overhead = new Histogram({
      name: 'gateway_http_request_overhead_seconds',
      help: "The gateway's own share of a request that called upstreams: its whole time minus the time spent in upstream attempts",
      labelNames: ['route'],
      buckets: OVERHEAD_BUCKETS,
      registers,
    });
    this.requestsInFlight = new Gauge({
      name: 'gateway_http_requests_in_flight',
      help: 'Requests received and not yet answered',
      registers,
    });
    this.streamsInFlight = new Gauge({
      name: 'gateway_streams_in_flight',
      help: 'Streamed answers being relayed (from their first upstream chunk to their end)',
      registers,
    });
    this.attempts = new TalliedCounter({
      name: 'gateway_upstream_attempts_total',
      help: 'Upstream attempts by model, provider and outcome (success, http_429, http_4xx, http_5xx, timeout, connection, malformed, aborted, local, gateway, internal)',
      labelNames: ['model', 'provider', 'outcome'],
      registers,
    });
    this.ttft = new Histogram({
      name: 'gateway_time_to_first_token_seconds',
      help: "Streams: time from the request's start to the first upstream chunk",
      labelNames: ['model', 'provider'],
      buckets: TTFT_BUCKETS,
      registers,
    });
    this.tokens = new TalliedCounter({
      name: 'gateway_tokens_total',
      help: 'Tokens billed, by model, provider and type (input, output, cached input, reasoning output)',
      labelNames: ['model', 'provider', 'type'],
      registers,
    });
    this.cost = new TalliedCounter({
      name: 'gateway_cost_usd_total',
      help: 'Cost charged in USD, by model and provider',
      labelNames: ['model', 'provider'],
      registers,
    });
    this.reservations = new TalliedCounter({
      name: 'gateway_spend_reservations_total',
      help: 'Spend admissions by outcome: held (the key has a limit), unlimited (nothing to hold), refused, failed',
      labelNames: ['outcome'],
      registers,
    });
    this.refusals = new TalliedCounter({
      name: 'gateway_spend_refusals_total',
      help: 'Requests refused for spend (402: a limit or the credits cannot cover it; 403: a spent guardrail budget), at admission or mid-run',
      labelNames: ['code'],
      registers,
    });
    this.ledgerWrite = new Histogram({
      name: 'gateway_ledger_write_seconds',
      help: "Ledger write lag: from a generation's row being handed to the ledger until it is committed (or kept in the outbox)",
      buckets: LEDGER_BUCKETS,
      registers,
    });
    const metrics = this;
    new Gauge({
      name: 'gateway_endpoint_healthy',
      help: 'Each endpoint of the catalog: 1 while it is healthy, 0 while the router avoids it after a failure',
      labelNames: ['model', 'provider'],
      registers,
      collect() {
        this.reset();
        for (const { model, provider, healthy } of metrics.health()) this.set({ model, provider }, healthy ? 1 : 0);
      },
    });
    new Gauge({
      name: 'gateway_ledger_outbox_rows',
      help: 'Ledger rows kept in the outbox while the database is away, not yet written back',
      registers,
      collect() {
        this.set(metrics.ledger?.outboxRows() ?? 0);
      },
    });
    new Gauge({
      name: 'gateway_ledger_database_away',
      help: '1 while ledger rows go to the outbox because the database is away',
      registers,
      collect() {
        this.set(metrics.ledger?.databaseAway() ? 1 : 0);
      },
    });
  }

  watchHealth(source: HealthSource): void {
    this.health = source;
  }

  watchLedger(source: LedgerSource): void {
    this.ledger = source;
  }

  request(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      series = {
        count: this.requests.series(key, () => ({ method, route, status: String(status) })),
        duration: this.duration.labels(method, route),
      };
      this.requestSeries.set(key, series);
    }
    series.count.add();
    series.duration.observe(seconds);
  }

  requestOverhead(route: string, seconds: number): void {
    let series = this.overheadSeries.get(route);
    if (!series) this.overheadSeries.set(route, (series = this.overhead.labels(route)));
    series.observe(seconds);
  }

  attempt(model: string, provider: string, outcome: string): void {
    const { attempts } = this.seriesOf(model, provider);
    let series = attempts.get(outcome);
    if (!series)
      attempts.set(outcome, (series = this.attempts.series(`${model}\n${provider}\n${outcome}`, () => ({ model, provider, outcome }))));
    series.add();
  }

  /** What a run was billed; `ttftSeconds` for a stream that received a first chunk. */
  billed(
    model: string,
    provider: string,
    figures: { input: number; output: number; cached: number; reasoning: number; cost: number; ttftSeconds?: number },
  ): void {
    const series = this.seriesOf(model, provider);
    series.inputTokens.add(figures.input);
    series.outputTokens.add(figures.output);
    series.cachedTokens.add(figures.cached);
    series.reasoningTokens.add(figures.reasoning);
    series.cost.add(figures.cost);
    if (figures.ttftSeconds !== undefined) series.ttft.observe(figures.ttftSeconds);
  }

  reservation(outcome: 'held' | 'unlimited' | 'refused' | 'failed'): void {
    this.reservations.series(outcome, () => ({ outcome })).add();
  }

  refusal(code: number): void {
    this.refusals.series(String(code), () => ({ code: String(code) })).add();
  }

  ledgerWritten(seconds: number): void {
    this.ledgerWrite.observe(seconds);
  }

  private seriesOf(model: string, provider: string): ModelSeries {
    const key = `${model}\n${provider}`;
    let series = this.modelSeries.get(key);
    if (!series) {
      const tokens = (type: string) => this.tokens.series(`${key}\n${type}`, () => ({ model, provider, type }));
      series = {
        inputTokens: tokens('input'),
        outputTokens: tokens('output'),
        cachedTokens: tokens('cached_input'),
        reasoningTokens: tokens('reasoning_output'),
        cost: this.cost.series(key, () => ({ model, provider })),
        ttft: this.ttft.labels(model, provider),
        attempts: new Map(),
      };
      this.modelSeries.set(key, series);
    }
    return series;
  }
}
