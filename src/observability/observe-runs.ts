import { performance } from 'node:perf_hooks';
import { context, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import type { Endpoint } from '../catalog/types.js';
import type { RoutedRequest, Run } from '../chat/run.js';
import type { ObservedEnd, RunObserver } from '../chat/run-observer.js';
import type { Attempt } from '../routing/plan-attempts.js';
import type { GatewayMetrics } from './metrics/gateway-metrics.js';
import { attemptOutcome } from './metrics/metric-labels.js';
import type { RequestsInFlight } from './request-facts.js';
import {
  ATTR_GATEWAY_ATTEMPT_OUTCOME,
  answerAttributes,
  attemptAttributes,
  operationName,
  runAttributes,
} from './tracing/span-attributes.js';

/** A run whose attempt committed: since when, whether it streams on, and the attempt's span until the run ends. */
interface Committed {
  at: number;
  streamed: boolean;
  span: Span | undefined;
}

const streams = (run: Run<RoutedRequest>) => (run.request as { stream?: unknown }).stream === true;

/**
 * Metrics (always) and spans (when a tracer is given) of the runs. Whether there is a tracer is
 * decided here, once: without one no span is made, looked up or checked for on the hot path.
 *
 * The serving attempt's span lasts until its run ends (a stream's last chunk), so that it carries the
 * answer's usage; a failed attempt's ends with its failure.
 */
export function observeRuns(metrics: GatewayMetrics, inFlight: RequestsInFlight, tracer: Tracer | undefined): RunObserver {
  const committed = new Map<string, Committed>();

  /** Counts an attempt that ended (committed or failed) toward its request's upstream time. */
  const attemptEnded = (run: Run<RoutedRequest>, attempt: Attempt<Endpoint>, outcome: string, started: number) => {
    metrics.attempt(attempt.modelId, attempt.endpoint.provider, outcome);
    const facts = inFlight.get(run.requestId);
    if (facts) {
      facts.attempts++;
      facts.upstreamMs += performance.now() - started;
    }
  };

  const commit = (run: Run<RoutedRequest>, span: Span | undefined) => {
    const streamed = streams(run);
    if (streamed) metrics.streamsInFlight.inc();
    if (streamed || span) committed.set(run.id, { at: performance.now(), streamed, span });
  };

  const plainAttempt = async <T>(run: Run<RoutedRequest>, attempt: Attempt<Endpoint>, call: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      const result = await call();
      attemptEnded(run, attempt, 'success', started);
      commit(run, undefined);
      return result;
    } catch (error) {
      attemptEnded(run, attempt, attemptOutcome(error), started);
      throw error;
    }
  };

  const tracedAttempt =
    (tracer: Tracer) =>
    async <T>(run: Run<RoutedRequest>, attempt: Attempt<Endpoint>, call: () => Promise<T>): Promise<T> => {
      const parent = context.active();
      const span = tracer.startSpan(
        `${operationName(run)} ${attempt.modelId}`,
        { kind: SpanKind.CLIENT, attributes: attemptAttributes(run, attempt) },
        parent,
      );
      const started = performance.now();
      try {
        // Active while the attempt calls out: its upstream requests carry this span as their parent.
        const result = await context.with(trace.setSpan(parent, span), call);
        attemptEnded(run, attempt, 'success', started);
        commit(run, span);
        return result;
      } catch (error) {
        const outcome = attemptOutcome(error);
        attemptEnded(run, attempt, outcome, started);
        span.setAttributes({ [ATTR_ERROR_TYPE]: outcome, [ATTR_GATEWAY_ATTEMPT_OUTCOME]: outcome });
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        span.end();
        throw error;
      }
    };

  const settled = (run: Run<RoutedRequest>, end: ObservedEnd, cost: number): void => {
    const facts = inFlight.get(run.requestId);
    const served = committed.get(run.id);
    if (served) {
      committed.delete(run.id);
      if (served.streamed) {
        metrics.streamsInFlight.dec();
        // A stream's relay, from its first chunk to its last, is upstream time too.
        if (facts) facts.upstreamMs += performance.now() - served.at;
      }
      if (served.span) {
        served.span.setAttributes(answerAttributes(end));
        if (end.status === 'error')
          served.span.setStatus({ code: SpanStatusCode.ERROR, ...(end.error ? { message: end.error.message } : {}) });
        served.span.end();
      }
    }
    const { attempt, usage } = end;
    if (attempt) {
      metrics.billed(attempt.modelId, attempt.endpoint.provider, {
        input: usage?.prompt_tokens ?? 0,
        output: usage?.completion_tokens ?? 0,
        cached: usage?.prompt_tokens_details?.cached_tokens ?? 0,
        reasoning: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
        cost,
        ...(end.streamed && end.ttftMs != null ? { ttftSeconds: end.ttftMs / 1000 } : {}),
      });
    }
    if (!facts) return;
    facts.inputTokens += usage?.prompt_tokens ?? 0;
    facts.outputTokens += usage?.completion_tokens ?? 0;
    facts.cost += cost;
    // The request's own run names its model, not an inner call (fusion's panel) made for it.
    if (run.parentGenerationId === undefined) {
      facts.model = attempt?.modelId ?? run.routing.planned[0]?.model ?? run.request.model;
      facts.provider = attempt?.endpoint.provider ?? end.outcomes.at(-1)?.provider;
      facts.span?.setAttributes(runAttributes(run, end, cost));
    }
  };

  if (!tracer) return { step: (_name, work) => work(), attempt: plainAttempt, settled };
  return {
    step: (name, work) => tracedStep(tracer, name, work),
    attempt: tracedAttempt(tracer),
    settled,
  };
}

/** `work` in a span named `name`, the active span while it runs; a promise's span ends when it settles. */
export function tracedStep<T>(tracer: Tracer, name: string, work: () => T): T {
  return tracer.startActiveSpan(name, (span) => {
    const failed = (error: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      span.end();
      throw error;
    };
    let result: T;
    try {
      result = work();
    } catch (error) {
      return failed(error);
    }
    if (result instanceof Promise) {
      return result.then((value: unknown) => {
        span.end();
        return value;
      }, failed) as T;
    }
    span.end();
    return result;
  });
}
