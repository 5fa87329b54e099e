import { subscribe } from 'node:diagnostics_channel';
import { context, defaultTextMapSetter, type Tracer, trace } from '@opentelemetry/api';
import { TRACE_PARENT_HEADER, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';

/** W3C trace context: read from clients, written to upstreams. */
export const propagator = new W3CTraceContextPropagator();

/** A tracer whose spans go to an OTLP receiver, and how to stop it. */
export interface Tracing {
  tracer: Tracer;
  /** Sends the spans ended so far. */
  flush(): Promise<void>;
  /** Sends what is left and stops. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** The OTLP/HTTP traces URL (config/observability-settings.ts reads it from the OTEL_* variables). */
  url: string;
  /** OTEL_SERVICE_NAME; OTEL_RESOURCE_ATTRIBUTES are read by the SDK's own detector. */
  serviceName?: string;
  version: string;
}

let registered = false;

/**
 * Once per process: spans follow the request across awaits (the SDK's AsyncLocalStorage context
 * manager), and each outbound undici request carries the trace context of the span active when it is
 * made, so that an upstream attempt's call names the attempt's span as its parent. Only a process that
 * keeps traces pays for either. The provider registered is the first app's; apps use their own tracer.
 */
function registerOnce(provider: NodeTracerProvider): void {
  if (registered) return;
  registered = true;
  provider.register({ propagator: null });
  subscribe('undici:request:create', (message) => {
    const active = context.active();
    if (!trace.getSpan(active)) return;
    const request = (message as { request: { headers: unknown; addHeader(name: string, value: string): void } }).request;
    // A request that already carries a trace context (set by its caller) keeps it.
    if (Array.isArray(request.headers) && request.headers.includes(TRACE_PARENT_HEADER)) return;
    const carrier: Record<string, string> = {};
    propagator.inject(active, carrier, defaultTextMapSetter);
    for (const [name, value] of Object.entries(carrier)) request.addHeader(name, value);
  });
}

/**
 * The OpenTelemetry trace SDK, exporting over OTLP/HTTP (JSON) in batches. The sampler
 * (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG), the batch timings (OTEL_BSP_*) and the exporter's
 * headers and timeout (OTEL_EXPORTER_OTLP_*) are read by the SDK from the environment.
 */
export function startTracing(options: TracingOptions): Tracing {
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: options.serviceName || 'model-gateway',
    [ATTR_SERVICE_VERSION]: options.version,
  }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: options.url }))],
  });
  registerOnce(provider);
  return {
    tracer: provider.getTracer('model-gateway', options.version),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
