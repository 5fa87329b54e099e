import type { AttemptOutcome } from '../../chat/attempt-outcome.js';
import type { GenerationRow } from '../../store/repositories/generations.js';

/** What the ledger's `routing` column holds. */
export interface RoutingRecord {
  /** The chat attempts; absent on rows of other kinds (a video job's). */
  attempts?: AttemptOutcome[];
  strategy?: string;
  /** Set when a router model chose the model (chat/service-metadata.ts RouterFacts). */
  router?: { model: string };
  [key: string]: unknown;
}

/** The ledger's routing column, parsed (null when absent or unreadable). */
export function parseRouting(text: string | null): RoutingRecord | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as RoutingRecord;
  } catch {
    return null;
  }
}

/** A ledger row in the reference's generation shape (`GET /generation`); times are milliseconds. */
export function toGenerationRecord(row: GenerationRow) {
  const routing = parseRouting(row.routing);
  return {
    id: row.id,
    upstream_id: row.upstream_id,
    request_id: row.request_id,
    total_cost: row.total_cost,
    usage: row.total_cost,
    upstream_inference_cost: row.is_byok === 1 ? row.byok_cost : row.total_cost,
    cache_discount: row.cache_discount,
    created_at: row.created_at,
    model: row.model,
    app_id: row.app_id,
    streamed: row.streamed === 1,
    cancelled: row.cancelled === 1,
    provider_name: row.provider_name,
    latency: row.latency_ms,
    moderation_latency: null,
    generation_time: row.generation_time_ms,
    finish_reason: row.finish_reason,
    native_finish_reason: row.native_finish_reason,
    service_tier: row.service_tier,
    tokens_prompt: row.tokens_prompt,
    tokens_completion: row.tokens_completion,
    native_tokens_prompt: row.tokens_prompt,
    native_tokens_completion: row.tokens_completion,
    native_tokens_completion_images: 0,
    native_tokens_reasoning: row.tokens_reasoning,
    native_tokens_cached: row.tokens_cached,
    num_media_prompt: null,
    num_input_audio_prompt: null,
    num_media_completion: null,
    num_search_results: null,
    num_fetches: null,
    web_search_engine: null,
    origin: row.origin ?? '',
    is_byok: row.is_byok === 1,
    external_user: row.external_user,
    api_type: row.api_type,
    preset_id: null,
    router: routing?.router?.model ?? null,
    provider_responses:
      routing?.attempts?.map((a) => ({
        provider_name: a.provider,
        model_permaslug: a.model,
        status: a.error?.status ?? (a.status === 'success' ? 200 : null),
        latency: a.latency_ms,
        is_byok: a.is_byok === true,
      })) ?? null,
    session_id: row.session_id,
    user_agent: row.user_agent,
    http_referer: row.origin,
    data_region: 'global',
    workspace_id: row.workspace_id,
    // Beyond the reference: the gateway's own account of the request.
    status: row.status,
    time_to_first_token: row.ttft_ms,
    tokens_cache_write: row.tokens_cache_write,
    // The token counts are the gateway's own: the upstream reported none, or figures that could not be billed.
    usage_estimated: row.usage_estimated === 1,
    parent_generation_id: row.parent_generation_id,
    // name: the error's catalogue name (GW_ERR_…, docs/errors.md), as the client's X-Error-Code header had it.
    error:
      row.error_code === null && row.error_message === null
        ? null
        : { code: row.error_code, name: row.error_name, message: row.error_message },
    routing,
  };
}
