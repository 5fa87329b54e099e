import { type HrTime, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
  ATTR_GEN_AI_RESPONSE_ID,
  ATTR_GEN_AI_RESPONSE_MODEL,
  ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_INPUT_TOKENS,
  ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
  ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
} from '../../observability/tracing/gen-ai-attributes.js';
import type { OtelCollectorConfig } from '../destination-config.js';
import type { GenerationEvent } from '../generation-event.js';
import { deliver, type ExportContext } from './deliver.js';
import { hasContent, idDigest, outputMessages, startMs } from './event-parts.js';

type ReadableSpan = Parameters<typeof JsonTraceSerializer.serializeRequest>[0][number];

const RESOURCE = resourceFromAttributes({ 'service.name': 'model-gateway' });
const SCOPE = { name: 'model-gateway/destinations' };

/**
 * OTLP/HTTP with JSON encoding: the generations as spans following the GenAI
 * semantic conventions, serialized by the OpenTelemetry SDK's own OTLP
 * serializer and POSTed to {endpoint}/v1/traces (unless the endpoint ends
 * with it already), through the SSRF-safe fetcher.
 */
export async function exportOtel(config: OtelCollectorConfig, events: readonly GenerationEvent[], context: ExportContext): Promise<void> {
  const body = JsonTraceSerializer.serializeRequest(events.map(generationSpan));
  if (!body) throw new Error('the OTLP serializer returned nothing');
  await deliver(context, tracesUrl(config.endpoint), {
    method: 'POST',
    headers: { ...config.headers, 'content-type': 'application/json' },
    body: Buffer.from(body).toString('utf8'),
  });
}

/** As OTEL_EXPORTER_OTLP_ENDPOINT is read: a base URL gets the signal's path, one that names it already is kept. */
export const tracesUrl = (endpoint: string): string => (endpoint.endsWith('/v1/traces') ? endpoint : `${endpoint}/v1/traces`);

const hrTime = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/** One generation as a client span `chat {model}`: ids derived from the generation's, so a span sent twice is the same span. */
export function generationSpan(event: GenerationEvent): ReadableSpan {
  const digest = idDigest(event.id).toString('hex');
  const start = startMs(event);
  const duration = event.latency_ms ?? 0;
  const operation = event.api_type === 'embeddings' ? 'embeddings' : 'chat';
  const attributes: Record<string, string | number | boolean | string[]> = {
    [ATTR_GEN_AI_OPERATION_NAME]: operation,
    [ATTR_GEN_AI_REQUEST_MODEL]: event.model,
    [ATTR_GEN_AI_RESPONSE_ID]: event.id,
    [ATTR_GEN_AI_USAGE_INPUT_TOKENS]: event.usage.prompt_tokens,
    [ATTR_GEN_AI_USAGE_OUTPUT_TOKENS]: event.usage.completion_tokens,
  };
  if (event.provider) attributes[ATTR_GEN_AI_PROVIDER_NAME] = event.provider;
  if (event.upstream_model) attributes[ATTR_GEN_AI_RESPONSE_MODEL] = event.upstream_model;
  if (event.finish_reason) attributes[ATTR_GEN_AI_RESPONSE_FINISH_REASONS] = [event.finish_reason];
  if (event.usage.cached_tokens) attributes[ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS] = event.usage.cached_tokens;
  if (event.usage.reasoning_tokens) attributes[ATTR_GEN_AI_USAGE_REASONING_OUTPUT_TOKENS] = event.usage.reasoning_tokens;
  if (event.session_id) attributes['gen_ai.conversation.id'] = event.session_id;
  if (event.cost) attributes['gen_ai.usage.cost'] = event.cost.total_cost;
  if (event.identity?.user) attributes['user.id'] = event.identity.user;
  if (event.error?.code) attributes['error.type'] = String(event.error.code);
  if (hasContent(event)) attributes['gen_ai.input.messages'] = JSON.stringify(event.input);
  const output = outputMessages(event);
  if (output.length > 0)
    attributes['gen_ai.output.messages'] = JSON.stringify(
      output.map(({ role, content }) => ({ role, parts: [{ type: 'text', content }] })),
    );
  return {
    name: `${operation} ${event.model}`,
    kind: SpanKind.CLIENT,
    spanContext: () => ({ traceId: digest.slice(0, 32), spanId: digest.slice(32, 48), traceFlags: 1 }),
    startTime: hrTime(start),
    endTime: hrTime(start + duration),
    duration: hrTime(duration),
    status: event.error ? { code: SpanStatusCode.ERROR, message: event.error.message ?? '' } : { code: SpanStatusCode.UNSET },
    attributes,
    links: [],
    events: [],
    ended: true,
    resource: RESOURCE,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
