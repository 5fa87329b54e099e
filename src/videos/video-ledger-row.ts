import { byokCharge } from '../byok/byok-charge.js';
import type { VideoJobRow } from '../store/repositories/video-jobs.js';
import type { GenerationRecord } from '../store/schema.js';

/** How a job ended without videos: failed or expired (an error) or cancelled upstream. */
export interface VideoFailure {
  status: 'error' | 'cancelled';
  message: string;
}

/**
 * The ledger row of an ended job: its generation id, the seconds of each
 * video, how many videos, the cost (the endpoint's price; on a BYOK
 * credential its BYOK usage, and `feeRate` of it the charge), and whether
 * the seconds are the gateway's own. A job that ended without videos
 * (failed, expired) is a row too, at no cost and with its error, so the
 * generation id its record shows is one GET /generation finds.
 */
export function videoLedgerRow(
  job: VideoJobRow,
  {
    seconds,
    outputs = 1,
    cost,
    now,
    failure,
    estimated = false,
    feeRate = 0,
  }: {
    seconds: number;
    outputs?: number;
    cost: number;
    now: Date;
    failure?: VideoFailure /** The seconds are the gateway's, not the upstream's. */;
    estimated?: boolean;
    /** The share of a BYOK job's price the gateway charges. */
    feeRate?: number;
  },
): GenerationRecord {
  return {
    id: job.generation_id,
    organization_id: job.organization_id,
    workspace_id: job.workspace_id,
    api_key_hash: job.api_key_hash,
    request_id: job.request_id,
    upstream_id: job.upstream_id,
    model: job.model,
    provider_name: job.provider,
    upstream_model: job.upstream_model,
    app_id: null,
    external_user: null,
    user_hash: null,
    session_id: null,
    api_type: 'video',
    status: failure?.status ?? 'success',
    streamed: 0,
    cancelled: failure?.status === 'cancelled' ? 1 : 0,
    finish_reason: null,
    native_finish_reason: null,
    service_tier: null,
    ...byokCharge(cost, job.credential_id !== null, feeRate),
    cache_discount: 0,
    latency_ms: now.getTime() - Date.parse(job.created_at),
    ttft_ms: null,
    generation_time_ms: null,
    error_code: null,
    error_message: failure?.message ?? null,
    routing: JSON.stringify({ video_job_id: job.id, video_seconds: seconds, videos: outputs }),
    origin: job.origin,
    user_agent: job.user_agent,
    created_at: job.created_at,
    usage_estimated: estimated ? 1 : 0,
  };
}
