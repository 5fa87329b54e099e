import { performance } from 'node:perf_hooks';
import { context, defaultTextMapGetter, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Logger } from 'pino';
import type { LedgerOutbox } from '../accounting/ledger-outbox.js';
import type { LedgerWriter } from '../accounting/ledger-writer.js';
import { NO_RESERVATION, type Reservation, type SpendReservations } from '../accounting/reservations.js';
import type { Catalog } from '../catalog/types.js';
import type { RunObserver } from '../chat/run-observer.js';
import type { GenerationContentRecord, GenerationRecord } from '../store/schema.js';
import '../http/authenticate.js';
import { isGatewayError } from '../protocol/gateway-error.js';
import type { EndpointHealth } from '../routing/endpoint-health.js';
import { endpointKey } from '../routing/plan-attempts.js';
import { accessLine, sampled } from './access-log/access-line.js';
import { GatewayMetrics } from './metrics/gateway-metrics.js';
import { CLIENT_CLOSED, UNMATCHED_ROUTE } from './metrics/metric-labels.js';
import { installMetricsRoute } from './metrics/metrics-route.js';
import { observeRuns } from './observe-runs.js';
import { newFacts, type RequestFacts, RequestsInFlight } from './request-facts.js';
import { ATTR_GATEWAY_GENERATION_ID } from './tracing/span-attributes.js';
import { propagator, type Tracing } from './tracing/start-tracing.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request's runs added up to (observability/request-facts.ts). */
    observed: RequestFacts | null;
  }
}

export interface ObservabilitySettings {
  /** METRICS_TOKEN: the bearer token GET /metrics requires; none by default. */
  metricsToken?: string;
  /** METRICS_LISTEN is set: /metrics is served on its own address (metrics/metrics-server.ts), not the API's. */
  metricsElsewhere?: boolean;
  /** ACCESS_LOG and ACCESS_LOG_SAMPLE: one line per request at info level, on by default, every request. */
  accessLog?: { enabled: boolean; sample: number };
  /** Traces, when the OTEL_* variables configure an exporter; none otherwise. */
  tracing?: Tracing;
}

/**
 * The gateway's operations: Prometheus metrics in a registry of this app's, the access log, and
 * OpenTelemetry traces when configured. install() puts Fastify hooks on every route (so an endpoint
 * added later has its metrics, line and span without more work); the runs' figures come through the
 * RunObserver the chat services carry; the ledger and spend reservations are watched from outside.
 */
export class Observability {
  readonly metrics = new GatewayMetrics();
  /** Passed to the chat services (RunServices.observer). */
  readonly runs: RunObserver;
  private readonly inFlight = new RequestsInFlight();
  private readonly tracer: Tracer | undefined;

  constructor(private readonly settings: ObservabilitySettings = {}) {
    this.tracer = settings.tracing?.tracer;
    this.runs = observeRuns(this.metrics, this.inFlight, this.tracer);
  }

  /** The pipeline's step (its stages in spans), only when traces are kept: otherwise its stages run as they are. */
  get pipelineStep(): RunObserver['step'] | undefined {
    return this.tracer ? this.runs.step : undefined;
  }

  /** Hooks on every request; before any route is registered. */
  install(app: FastifyInstance): void {
    const { metrics, inFlight, tracer } = this;
    const accessLog = this.settings.accessLog ?? { enabled: true, sample: 1 };
    const log = app.log;
    // Without a logger (tests, logger: false) Fastify's stand-in has no levels: nothing to write to.
    const infoEnabled =
      typeof (log as Partial<Logger>).isLevelEnabled === 'function' ? () => (log as Logger).isLevelEnabled('info') : () => false;
    app.decorateRequest('observed', null);

    const finish = (request: FastifyRequest, reply: FastifyReply, facts: RequestFacts) => {
      const durationMs = performance.now() - facts.start;
      const status = reply.raw.headersSent ? reply.raw.statusCode : CLIENT_CLOSED;
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics.requestsInFlight.dec();
      metrics.request(request.method, route, status, durationMs / 1000);
      if (facts.attempts > 0) metrics.requestOverhead(route, Math.max(0, durationMs - facts.upstreamMs) / 1000);
      inFlight.delete(request.id);
      if (accessLog.enabled && infoEnabled() && sampled(status, accessLog.sample, Math.random)) {
        log.info(
          accessLine({ method: request.method, route, status, durationMs, requestId: request.id, keyHash: request.apiKey?.hash, facts }),
          'request',
        );
      }
      if (facts.span) endRequestSpan(facts.span, status);
    };

    const begin = (request: FastifyRequest, reply: FastifyReply): RequestFacts => {
      const facts = newFacts(performance.now());
      request.observed = facts;
      inFlight.add(request.id, facts);
      metrics.requestsInFlight.inc();
      // 'close', not onResponse: it also comes when the client leaves first, and after a hijacked stream.
      reply.raw.once('close', () => finish(request, reply, facts));
      return facts;
    };
    // Chosen once: without a tracer, requests make no span and their handlers run as they are.
    if (!tracer) {
      app.addHook('onRequest', (request, reply, done) => {
        begin(request, reply);
        done();
      });
    } else {
      app.addHook('onRequest', (request, reply, done) => {
        startRequestSpan(tracer, request, begin(request, reply));
        done();
      });
      // The handler runs with the request's span active, so that the spans of its work are its children.
      app.addHook('onRoute', (route) => {
        route.handler = inRequestContext(route.handler);
      });
    }
  }

  /** GET /metrics, unless it is served on an address of its own; after the OpenAPI document is installed, which then lists it. */
  installRoute(app: FastifyInstance): void {
    if (!this.settings.metricsElsewhere) installMetricsRoute(app, this.metrics, this.settings.metricsToken);
  }

  /** Times each ledger write (handed over to committed), in a span when traced; returns the writer. */
  observeLedger(ledger: LedgerWriter, outbox: LedgerOutbox | undefined): LedgerWriter {
    const { metrics, tracer } = this;
    metrics.watchLedger({ outboxRows: () => outbox?.rows ?? 0, databaseAway: () => ledger.databaseAway });
    const record = ledger.record.bind(ledger);
    const timed = (row: GenerationRecord, content?: GenerationContentRecord) => {
      const started = performance.now();
      return record(row, content).then(() => metrics.ledgerWritten((performance.now() - started) / 1000));
    };
    // The writer's own record, timed (and in a span when traced): the writer knows nothing of metrics or spans.
    ledger.record = !tracer
      ? timed
      : (row, content) => {
          const span = tracer.startSpan('ledger write', { attributes: { [ATTR_GATEWAY_GENERATION_ID]: row.id } }, context.active());
          return timed(row, content).then(
            () => span.end(),
            (error: unknown) => {
              span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) }).end();
              throw error;
            },
          );
        };
    return ledger;
  }

  /** Counts spend admissions and refusals (at admission and when a run's hold grows). */
  observeSpend(spend: SpendReservations): void {
    const { metrics } = this;
    const counted = (error: unknown): never => {
      const code = isGatewayError(error) ? error.statusCode : 0;
      if (code === 402 || code === 403) metrics.refusal(code);
      throw error;
    };
    const reserve = spend.reserve.bind(spend);
    spend.reserve = async (...args) => {
      let reservation: Reservation;
      try {
        reservation = await reserve(...args);
      } catch (error) {
        const code = isGatewayError(error) ? error.statusCode : 0;
        metrics.reservation(code === 402 || code === 403 ? 'refused' : 'failed');
        return counted(error);
      }
      if (reservation === NO_RESERVATION) {
        metrics.reservation('unlimited');
        return reservation;
      }
      metrics.reservation('held');
      const resize = reservation.resize.bind(reservation);
      reservation.resize = (ceiling) => resize(ceiling).catch(counted);
      return reservation;
    };
  }

  /** The endpoint-health gauge: every endpoint of the catalog, as the router sees it. */
  watchHealth(catalog: Catalog, health: EndpointHealth): void {
    this.metrics.watchHealth(function* () {
      for (const model of catalog.listModels()) {
        for (const { provider } of model.endpoints)
          yield { model: model.id, provider, healthy: health.isHealthy(endpointKey(model.id, provider)) };
      }
    });
  }
}

/** The request's span, a child of the client's trace context when it sent one (traceparent). */
function startRequestSpan(tracer: Tracer, request: FastifyRequest, facts: RequestFacts): void {
  const parent = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
  const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
  const span = tracer.startSpan(
    `${request.method} ${route}`,
    {
      kind: SpanKind.SERVER,
      attributes: { [ATTR_HTTP_REQUEST_METHOD]: request.method, [ATTR_HTTP_ROUTE]: route, [ATTR_URL_PATH]: request.url.split('?', 1)[0] },
    },
    parent,
  );
  facts.span = span;
  facts.context = trace.setSpan(parent, span);
}

function endRequestSpan(span: Span, status: number): void {
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (status >= 500) span.setAttributes({ [ATTR_ERROR_TYPE]: String(status) }).setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

function inRequestContext(handler: RouteHandlerMethod): RouteHandlerMethod {
  return function (this: FastifyInstance, request, reply) {
    const within = request.observed?.context;
    return within ? context.with(within, handler, this, request, reply) : handler.call(this, request, reply);
  };
}
