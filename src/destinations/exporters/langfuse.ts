import type { LangfuseConfig } from '../destination-config.js';
import type { GenerationEvent } from '../generation-event.js';
import { DeliveryError, deliver, type ExportContext } from './deliver.js';
import { endTime, eventMetadata, hasContent } from './event-parts.js';

/**
 * Langfuse's public ingestion API: POST {baseUrl}/api/public/ingestion with
 * HTTP basic auth (public key : secret key) and a batch of events, here a
 * `trace-create` and a `generation-create` per generation (model, usage in
 * `usageDetails`, cost in `costDetails` when the destination broadcasts it,
 * start and end times for the latency). Langfuse answers 207 with
 * `successes` and `errors` per event; an event id it refused is a failure.
 * The ids are the generation's, so a batch sent twice is deduplicated there.
 */
export async function exportLangfuse(config: LangfuseConfig, events: readonly GenerationEvent[], context: ExportContext): Promise<void> {
  const batch = events.flatMap(langfuseEvents);
  const answer = await deliver(context, `${config.baseUrl}/api/public/ingestion`, {
    method: 'POST',
    headers: {
      ...config.headers,
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${config.publicKey}:${config.secretKey}`).toString('base64')}`,
    },
    body: JSON.stringify({ batch }),
  });
  const errors = ingestionErrors(answer);
  if (errors.length > 0) {
    const retryable = errors.some((e) => e.status === 429 || e.status >= 500);
    throw new DeliveryError(`Langfuse refused ${errors.length} event(s): ${errors[0]?.message ?? errors[0]?.status}`, retryable);
  }
}

interface IngestionError {
  id: string;
  status: number;
  message?: string;
}

function ingestionErrors(answer: string): IngestionError[] {
  try {
    const parsed = JSON.parse(answer) as { errors?: IngestionError[] };
    return Array.isArray(parsed.errors) ? parsed.errors : [];
  } catch {
    return [];
  }
}

/** The two ingestion events of one generation. */
export function langfuseEvents(event: GenerationEvent): object[] {
  const timestamp = event.created_at;
  const content = hasContent(event) ? { input: event.input, output: event.output ?? null } : {};
  const metadata = eventMetadata(event);
  const generation: Record<string, unknown> = {
    id: event.id,
    traceId: event.id,
    name: event.api_type,
    startTime: timestamp,
    endTime: endTime(event),
    ...(event.ttft_ms !== null ? { completionStartTime: new Date(Date.parse(timestamp) + event.ttft_ms).toISOString() } : {}),
    model: event.upstream_model ?? event.model,
    usageDetails: {
      input: event.usage.prompt_tokens,
      output: event.usage.completion_tokens,
      total: event.usage.total_tokens,
      ...(event.usage.cached_tokens ? { cache_read_input_tokens: event.usage.cached_tokens } : {}),
    },
    ...(event.cost ? { costDetails: { total: event.cost.total_cost } } : {}),
    level: event.error ? 'ERROR' : 'DEFAULT',
    ...(event.error ? { statusMessage: event.error.message ?? String(event.error.code) } : {}),
    metadata,
    ...content,
  };
  return [
    {
      id: `${event.id}-trace`,
      type: 'trace-create',
      timestamp,
      body: {
        id: event.id,
        name: event.model,
        timestamp,
        ...(event.session_id ? { sessionId: event.session_id } : {}),
        ...(event.identity?.user ? { userId: event.identity.user } : {}),
        metadata,
        ...content,
      },
    },
    { id: `${event.id}-generation`, type: 'generation-create', timestamp, body: generation },
  ];
}
