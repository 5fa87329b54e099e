import type { LangsmithConfig } from '../destination-config.js';
import type { GenerationEvent } from '../generation-event.js';
import { deliver, type ExportContext } from './deliver.js';
import { endTime, eventMetadata, hasContent, inputMessages, outputMessages, uuidOf } from './event-parts.js';

/**
 * LangSmith's runs API, batch ingestion: POST {endpoint}/runs/batch with the
 * `x-api-key` header (and `x-tenant-id` for an org-scoped key) and a body
 * `{"post": [run…], "patch": []}`, each generation one finished root run of
 * type `llm` (docs.langchain.com/langsmith/trace-with-api, the API's
 * "Create Runs Batch": a batch run must carry `trace_id` and
 * `dotted_order`; a root run's trace id is its own id and its dotted order is
 * its start time `%Y%m%dT%H%M%S%fZ` followed by its id). Model and provider go
 * in `extra.metadata.ls_model_name` / `ls_provider` and the tokens in
 * `outputs.usage_metadata`, where LangSmith reads them for its cost tracking
 * (docs.langchain.com/langsmith/ls-metadata-parameters). Run ids derive
 * from the generation's, so a batch sent twice upserts the same runs.
 */
export async function exportLangsmith(config: LangsmithConfig, events: readonly GenerationEvent[], context: ExportContext): Promise<void> {
  await deliver(context, `${config.endpoint}/runs/batch`, {
    method: 'POST',
    headers: {
      ...config.headers,
      'content-type': 'application/json',
      'x-api-key': config.apiKey,
      ...(config.workspaceId ? { 'x-tenant-id': config.workspaceId } : {}),
    },
    body: JSON.stringify({ post: events.map((event) => langsmithRun(event, config.project)), patch: [] }),
  });
}

/** `2025-08-24T10:30:00.123Z` as a dotted order's stamp, `20250824T103000123000Z` (microseconds). */
export const dottedStamp = (iso: string): string => {
  const at = new Date(iso).toISOString();
  return `${at.slice(0, 19).replace(/[-:]/g, '')}${at.slice(20, 23)}000Z`;
};

/** One generation as a LangSmith run. */
export function langsmithRun(event: GenerationEvent, project: string): Record<string, unknown> {
  const id = uuidOf(event.id);
  const startTime = new Date(event.created_at).toISOString();
  const usage = {
    input_tokens: event.usage.prompt_tokens,
    output_tokens: event.usage.completion_tokens,
    total_tokens: event.usage.total_tokens,
    ...(event.usage.cached_tokens ? { input_token_details: { cache_read: event.usage.cached_tokens } } : {}),
    ...(event.usage.reasoning_tokens ? { output_token_details: { reasoning: event.usage.reasoning_tokens } } : {}),
    ...(event.cost ? { total_cost: event.cost.total_cost } : {}),
  };
  const output = outputMessages(event);
  return {
    id,
    trace_id: id,
    dotted_order: `${dottedStamp(startTime)}${id}`,
    name: event.model,
    run_type: event.api_type === 'embeddings' ? 'embedding' : 'llm',
    start_time: startTime,
    end_time: endTime(event),
    session_name: project,
    inputs: hasContent(event) ? { messages: inputMessages(event).length > 0 ? inputMessages(event) : event.input } : {},
    outputs: {
      ...(output.length > 0 ? { choices: output.map((message) => ({ message })) } : {}),
      usage_metadata: usage,
    },
    extra: {
      metadata: {
        ls_provider: event.provider,
        ls_model_name: event.upstream_model ?? event.model,
        generation_id: event.id,
        ...eventMetadata(event),
        ...(event.session_id ? { session_id: event.session_id } : {}),
        ...(event.identity?.user ? { user_id: event.identity.user } : {}),
      },
    },
    ...(event.error ? { error: event.error.message ?? String(event.error.code) } : {}),
  };
}
