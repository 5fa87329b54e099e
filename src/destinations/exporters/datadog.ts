import type { DatadogConfig } from '../destination-config.js';
import type { GenerationEvent } from '../generation-event.js';
import { deliver, type ExportContext } from './deliver.js';
import { eventMetadata, hasContent, idDigest, inputMessages, outputMessages, startMs } from './event-parts.js';

/**
 * Datadog LLM Observability's spans intake: POST
 * {url}/api/intake/llm-obs/v1/trace/spans with the `DD-API-KEY` header and
 * `{"data": {"type": "span", "attributes": {"ml_app", "tags", "spans": […]}}}`
 * (docs.datadoghq.com/llm_observability/instrumentation/api: a span needs
 * `name`, `span_id`, `trace_id`, `parent_id` — `"undefined"` for a root —,
 * `start_ns` (uint64), `duration` (ns) and `meta.kind`; tokens go in
 * `metrics`, model and provider in `meta.metadata`; Datadog answers 202).
 * `url` is the site's API host (`https://api.datadoghq.eu`, …). Ids derive
 * from the generation's: a 128-bit hex trace id and a 64-bit decimal span id,
 * as Datadog's own tracers write them.
 */
export async function exportDatadog(config: DatadogConfig, events: readonly GenerationEvent[], context: ExportContext): Promise<void> {
  await deliver(context, `${config.url}/api/intake/llm-obs/v1/trace/spans`, {
    method: 'POST',
    headers: { ...config.headers, 'content-type': 'application/json', 'dd-api-key': config.apiKey },
    body: datadogBody(config.mlApp, events),
  });
}

/**
 * The request body. `start_ns` is a uint64 past 2⁵³, which a JSON number from
 * a double would round: each span is serialized without it and gets it
 * appended as exact digits.
 */
export function datadogBody(mlApp: string, events: readonly GenerationEvent[]): string {
  const spans = events.map((event) => {
    const json = JSON.stringify(datadogSpan(event));
    return `${json.slice(0, -1)},"start_ns":${BigInt(startMs(event)) * 1_000_000n}}`;
  });
  const head = JSON.stringify({ data: { type: 'span', attributes: { ml_app: mlApp, tags: ['source:model-gateway'], spans: [] } } });
  return head.replace('"spans":[]', `"spans":[${spans.join(',')}]`);
}

/** One generation as an LLM span, without its start_ns (datadogBody adds it). */
export function datadogSpan(event: GenerationEvent): Record<string, unknown> {
  const digest = idDigest(event.id);
  const output = outputMessages(event);
  const input = inputMessages(event);
  const meta: Record<string, unknown> = {
    kind: event.api_type === 'embeddings' ? 'embedding' : 'llm',
    ...(hasContent(event) ? { input: input.length > 0 ? { messages: input } : { value: JSON.stringify(event.input) } } : {}),
    ...(hasContent(event) ? { output: output.length > 0 ? { messages: output } : { value: '' } } : {}),
    metadata: {
      model_name: event.upstream_model ?? event.model,
      model_provider: event.provider ?? 'unknown',
      generation_id: event.id,
      ...(event.cost ? { total_cost: event.cost.total_cost } : {}),
      ...eventMetadata(event),
    },
    ...(event.error ? { error: { message: event.error.message ?? '', type: String(event.error.code ?? 'error') } } : {}),
  };
  return {
    parent_id: 'undefined',
    trace_id: digest.subarray(0, 16).toString('hex'),
    span_id: digest.readBigUInt64BE(16).toString(),
    name: `${meta.kind === 'embedding' ? 'embeddings' : 'chat'} ${event.model}`,
    meta,
    duration: (event.latency_ms ?? 0) * 1_000_000,
    status: event.error ? 'error' : 'ok',
    metrics: {
      input_tokens: event.usage.prompt_tokens,
      output_tokens: event.usage.completion_tokens,
      total_tokens: event.usage.total_tokens,
      ...(event.ttft_ms !== null ? { time_to_first_token: event.ttft_ms / 1000 } : {}),
    },
    ...(event.session_id ? { session_id: event.session_id } : {}),
    tags: [`model:${event.model}`, ...(event.identity?.user ? [`user_id:${event.identity.user}`] : [])],
  };
}
