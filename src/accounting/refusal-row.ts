import type { GatewayError } from '../protocol/gateway-error.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import type { GenerationRecord } from '../store/schema.js';
import { newGenerationId } from '../util/ids.js';

/** What the ledger keeps of a refused request: who asked, for what, where from, and why it was refused. */
export interface Refusal {
  key: Pick<ApiKeyRow, 'hash' | 'organization_id' | 'workspace_id' | 'app_id' | 'external_user'>;
  requestId: string;
  /** The body as sent (undefined when it was refused before it was read). */
  body: unknown;
  /** The ledger's api_type of the route (the reference's names: completions, rerank, embeddings, …). */
  apiType: string;
  origin: string | null;
  userAgent: string | null;
  error: GatewayError;
}

/** A model id is short; a client's text is cut to this before it is kept. */
const MODEL_CHARS = 200;

/** The model the body asked for: `model`, else the first of `models`; "unknown" when it names none (or was not read). */
export function askedModel(body: unknown): string {
  if (typeof body !== 'object' || body === null) return 'unknown';
  const { model, models } = body as { model?: unknown; models?: unknown };
  const asked =
    typeof model === 'string' && model !== '' ? model : Array.isArray(models) ? models.find((m) => typeof m === 'string') : undefined;
  return typeof asked === 'string' && asked !== '' ? asked.slice(0, MODEL_CHARS) : 'unknown';
}

/**
 * The ledger row of a request refused before any upstream call: status
 * error, its HTTP status and catalogue name, cost 0, no provider. It has no
 * latency: the rollups' latencies stay those of requests a model answered.
 */
export function refusalRow(refusal: Refusal, now: Date): GenerationRecord {
  const { key, error } = refusal;
  const stream = typeof refusal.body === 'object' && refusal.body !== null && (refusal.body as { stream?: unknown }).stream === true;
  return {
    id: newGenerationId(now),
    organization_id: key.organization_id,
    workspace_id: key.workspace_id,
    api_key_hash: key.hash,
    request_id: refusal.requestId,
    upstream_id: null,
    model: askedModel(refusal.body),
    provider_name: null,
    upstream_model: null,
    app_id: key.app_id,
    external_user: key.external_user,
    user_hash: null,
    session_id: null,
    api_type: refusal.apiType,
    status: 'error',
    streamed: stream ? 1 : 0,
    cancelled: 0,
    finish_reason: null,
    native_finish_reason: null,
    service_tier: null,
    total_cost: 0,
    cache_discount: null,
    latency_ms: null,
    ttft_ms: null,
    generation_time_ms: null,
    error_code: error.statusCode,
    error_name: error.code,
    error_message: error.message,
    routing: null,
    origin: refusal.origin,
    user_agent: refusal.userAgent,
    created_at: now.toISOString(),
    parent_generation_id: null,
  };
}
