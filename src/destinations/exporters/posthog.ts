import type { PosthogConfig } from '../destination-config.js';
import type { GenerationEvent } from '../generation-event.js';
import { deliver, type ExportContext } from './deliver.js';
import { eventMetadata, hasContent, inputMessages, outputMessages, uuidOf } from './event-parts.js';

/**
 * PostHog's capture API, batch form: POST {endpoint}/batch/ with
 * `{"api_key": <project key>, "historical_migration": false, "batch": [event…]}`
 * (posthog.com/docs/api/capture: the key rides in the body, each event has
 * `event`, `properties.distinct_id` and an ISO `timestamp`). Each generation
 * is an `$ai_generation` event with the documented `$ai_*` properties
 * (posthog.com/docs/llm-analytics/manual-capture): trace id, model,
 * provider, tokens, latency and time to first token in seconds, stream,
 * error, cost in USD, and input and output choices only when content may go.
 * Without an end user the trace id is the distinct id and no person profile
 * is made, as PostHog's own SDK wrappers do. The event `uuid` derives from the
 * generation, so PostHog deduplicates a batch sent twice.
 */
export async function exportPosthog(config: PosthogConfig, events: readonly GenerationEvent[], context: ExportContext): Promise<void> {
  await deliver(context, `${config.endpoint}/batch/`, {
    method: 'POST',
    headers: { ...config.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: config.apiKey, historical_migration: false, batch: events.map(posthogEvent) }),
  });
}

const seconds = (ms: number | null): number | undefined => (ms === null ? undefined : ms / 1000);

/** One generation as an `$ai_generation` event. */
export function posthogEvent(event: GenerationEvent): Record<string, unknown> {
  const user = event.identity?.user ?? null;
  const properties: Record<string, unknown> = {
    distinct_id: user ?? event.id,
    ...(user ? {} : { $process_person_profile: false }),
    $ai_trace_id: event.id,
    $ai_span_id: event.id,
    $ai_model: event.upstream_model ?? event.model,
    $ai_provider: event.provider,
    $ai_input_tokens: event.usage.prompt_tokens,
    $ai_output_tokens: event.usage.completion_tokens,
    ...(event.usage.cached_tokens ? { $ai_cache_read_input_tokens: event.usage.cached_tokens } : {}),
    ...(event.usage.reasoning_tokens ? { $ai_reasoning_tokens: event.usage.reasoning_tokens } : {}),
    $ai_latency: seconds(event.latency_ms),
    ...(event.ttft_ms !== null ? { $ai_time_to_first_token: seconds(event.ttft_ms) } : {}),
    $ai_stream: event.streamed,
    $ai_is_error: event.error !== null,
    ...(event.error ? { $ai_error: event.error.message ?? String(event.error.code), $ai_http_status: event.error.code } : {}),
    ...(event.cost ? { $ai_total_cost_usd: event.cost.total_cost } : {}),
    ...(event.session_id ? { $ai_session_id: event.session_id } : {}),
    ...(hasContent(event) ? { $ai_input: inputMessages(event).length > 0 ? inputMessages(event) : event.input } : {}),
    ...(hasContent(event) ? { $ai_output_choices: outputMessages(event) } : {}),
    model: event.model,
    ...eventMetadata(event),
  };
  return { event: '$ai_generation', uuid: uuidOf(event.id), timestamp: new Date(event.created_at).toISOString(), properties };
}
