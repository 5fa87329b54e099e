import { Counter, Gauge, Histogram, Registry } from 'prom-client';

type CounterChild = ReturnType<Counter['labels']>;
type HistogramChild = ReturnType<Histogram['labels']>;

/** The series of one model served by one provider: looked up once per run, not once per figure. */
interface ModelSeries {
  inputTokens: CounterChild;
  outputTokens: CounterChild;
  cachedTokens: CounterChild;
  reasoningTokens: CounterChild;
  cost: CounterChild;
  ttft: HistogramChild;
  attempts: Map<string, CounterChild>;
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
 * share a series). Children of labelled metrics are kept once made: the hot path does a Map lookup, not
 * prom-client's label hashing, per figure.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requestsInFlight: Gauge;
  readonly streamsInFlight: Gauge;
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;
  private readonly overhead: Histogram<'route'>;
  private readonly attempts: Counter<'model' | 'provider' | 'outcome'>;
  private readonly ttft: Histogram<'model' | 'provider'>;
  private readonly tokens: Counter<'model' | 'provider' | 'type'>;
  private readonly cost: Counter<'model' | 'provider'>;
  private readonly reservations: Counter<'outcome'>;
  private readonly refusals: Counter<'code'>;
  private readonly ledgerWrite: Histogram;
  private readonly requestSeries = new Map<string, { count: CounterChild; duration: HistogramChild }>();
  private readonly overheadSeries = new Map<string, HistogramChild>();
  private readonly modelSeries = new Map<string, ModelSeries>();
  private health: HealthSource = () => [];
  private ledger: LedgerSource | undefined;

  constructor() {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'gateway_http_requests_total', help: 'Requests answered, by route pattern and status (499: the client left first)', labelNames: ['method', 'route', 'status'], registers });
    this.duration = new Histogram({ name: 'gateway_http_request_duration_seconds', help: 'Time from a request\'s arrival to the end of its answer (a stream\'s last byte)', labelNames: ['method', 'route'], buckets: LATENCY_BUCKETS, registers });
    this.overhead = new Histogram({
      name: 'gateway_http_request_overhead_seconds',
      help: 'The gateway\'s own share of a request that called upstreams: its whole time minus the time spent in upstream attempts',
      labelNames: ['route'],
      buckets: OVERHEAD_BUCKETS,
      registers,
    });
    this.requestsInFlight = new Gauge({ name: 'gateway_http_requests_in_flight', help: 'Requests received and not yet answered', registers });
    this.streamsInFlight = new Gauge({ name: 'gateway_streams_in_flight', help: 'Streamed answers being relayed (from their first upstream chunk to their end)', registers });
    this.attempts = new Counter({ name: 'gateway_upstream_attempts_total', help: 'Upstream attempts by model, provider and outcome (success, http_429, http_4xx, http_5xx, timeout, connection, malformed, aborted, local, gateway, internal)', labelNames: ['model', 'provider', 'outcome'], registers });
    this.ttft = new Histogram({ name: 'gateway_time_to_first_token_seconds', help: 'Streams: time from the request\'s start to the first upstream chunk', labelNames: ['model', 'provider'], buckets: TTFT_BUCKETS, registers });
    this.tokens = new Counter({ name: 'gateway_tokens_total', help: 'Tokens billed, by model, provider and type (input, output, cached input, reasoning output)', labelNames: ['model', 'provider', 'type'], registers });
    this.cost = new Counter({ name: 'gateway_cost_usd_total', help: 'Cost charged in USD, by model and provider', labelNames: ['model', 'provider'], registers });
    this.reservations = new Counter({ name: 'gateway_spend_reservations_total', help: 'Spend admissions by outcome: held (the key has a limit), unlimited (nothing to hold), refused, failed', labelNames: ['outcome'], registers });
    this.refusals = new Counter({ name: 'gateway_spend_refusals_total', help: 'Requests refused for spend (402: a limit or the credits cannot cover it; 403: a spent guardrail budget), at admission or mid-run', labelNames: ['code'], registers });
    this.ledgerWrite = new Histogram({ name: 'gateway_ledger_write_seconds', help: 'Ledger write lag: from a generation\'s row being handed to the ledger until it is committed (or kept in the outbox)', buckets: LEDGER_BUCKETS, registers });
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
      series = { count: this.requests.labels(method, route, String(status)), duration: this.duration.labels(method, route) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
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
    if (!series) attempts.set(outcome, (series = this.attempts.labels(model, provider, outcome)));
    series.inc();
  }

  /** What a run was billed; `ttftSeconds` for a stream that received a first chunk. */
  billed(model: string, provider: string, figures: { input: number; output: number; cached: number; reasoning: number; cost: number; ttftSeconds?: number }): void {
    const series = this.seriesOf(model, provider);
    if (figures.input > 0) series.inputTokens.inc(figures.input);
    if (figures.output > 0) series.outputTokens.inc(figures.output);
    if (figures.cached > 0) series.cachedTokens.inc(figures.cached);
    if (figures.reasoning > 0) series.reasoningTokens.inc(figures.reasoning);
    if (figures.cost > 0) series.cost.inc(figures.cost);
    if (figures.ttftSeconds !== undefined) series.ttft.observe(figures.ttftSeconds);
  }

  reservation(outcome: 'held' | 'unlimited' | 'refused' | 'failed'): void {
    this.reservations.inc({ outcome });
  }

  refusal(code: number): void {
    this.refusals.inc({ code: String(code) });
  }

  ledgerWritten(seconds: number): void {
    this.ledgerWrite.observe(seconds);
  }

  private seriesOf(model: string, provider: string): ModelSeries {
    const key = `${model}\n${provider}`;
    let series = this.modelSeries.get(key);
    if (!series) {
      series = {
        inputTokens: this.tokens.labels(model, provider, 'input'),
        outputTokens: this.tokens.labels(model, provider, 'output'),
        cachedTokens: this.tokens.labels(model, provider, 'cached_input'),
        reasoningTokens: this.tokens.labels(model, provider, 'reasoning_output'),
        cost: this.cost.labels(model, provider),
        ttft: this.ttft.labels(model, provider),
        attempts: new Map(),
      };
      this.modelSeries.set(key, series);
    }
    return series;
  }
}
