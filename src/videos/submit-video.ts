import { randomBytes } from 'node:crypto';
import { withKeyCredentials } from '../byok/credential-attempts.js';
import { unknownModel } from '../catalog/closest-model.js';
import { modelTask } from '../catalog/model-task.js';
import type { Endpoint } from '../catalog/types.js';
import { Errors } from '../http/errors.js';
import type { VideoRequest } from '../protocol/video-request.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { insertVideoJob, type VideoJobRow } from '../store/repositories/video-jobs.js';
import { newGenerationId } from '../util/ids.js';
import { planVideoEndpoints } from './plan-video-endpoints.js';
import { videoCost } from './video-cost.js';
import { videoRequestProblem } from './video-request-problem.js';
import type { VideoServices } from './video-services.js';
import { videoAdapterOf } from './video-target.js';

/** A job's hold outlasts its longest life (the poller expires a job past maxAgeMs) by this much: the poller may be late. */
const RESERVATION_GRACE_MS = 10 * 60_000;

export interface SubmitContext {
  requestId: string;
  origin: string | null;
  userAgent: string | null;
}

/**
 * Stores a new job for the poller to submit upstream: the request is
 * answered at once, and a job outlives the instance that took it. An unknown
 * model is a 404; a model of another task, one with no video-capable
 * endpoint, or a request no planned endpoint can make is a 400; preferences
 * that leave no endpoint are a 404; a key whose limits cannot cover what the
 * job can cost, counting the jobs and requests in flight, is a 402 (403 for a
 * spent guardrail budget). The reservation is stored with the job and ends
 * with it (poll-job.ts). The job goes to the first planned attempt that can
 * make it (an endpoint, on a BYOK credential the key may use or the
 * gateway's own); the others that can are its fallbacks.
 */
export async function submitVideo(
  services: VideoServices,
  key: ApiKeyRow,
  request: VideoRequest,
  context: SubmitContext,
): Promise<VideoJobRow> {
  const model = services.catalog.getModel(request.model);
  if (!model) throw unknownModel(services.catalog, request.model);
  if (modelTask(model) !== 'video') throw Errors.invalidRequest(`Model ${model.id} is not a video model: send it to its own endpoint`);
  const makesVideo = (endpoint: Endpoint) => videoAdapterOf(services, endpoint) !== undefined;
  if (!model.endpoints.some(makesVideo)) throw Errors.invalidRequest(`Model ${model.id} has no provider that generates video`);
  const plan = planVideoEndpoints(model, makesVideo, request.provider, services.random ?? Math.random);
  if (plan.noEndpoint !== undefined) throw Errors.noEndpointMatchesPreferences({ candidates: plan.candidates }, plan.noEndpoint);

  // As a chat's plan: each endpoint's attempts on the BYOK credentials the key may use, around the gateway's own.
  const attempts = withKeyCredentials(services.byok, key, plan.attempts);
  const problems = attempts.map(({ endpoint }) => {
    const adapter = videoAdapterOf(services, endpoint)!;
    return (
      videoRequestProblem(request, model.id, adapter.options(endpoint.upstreamModel)) ?? adapter.refusal(request, endpoint.upstreamModel)
    );
  });
  const able = attempts.filter((_, i) => problems[i] === undefined);
  const [first, ...fallbacks] = able;
  if (!first) throw Errors.invalidRequest(problems[0] ?? `Model ${model.id} has no provider that generates video`);
  // The most the job can cost: its length on the dearest endpoint it may go to (a fallback may cost more than the first), at
  // full price even on a BYOK credential, as a chat's hold: the job may fall back to the gateway's own.
  const ceiling = Math.max(
    ...able.map(({ endpoint: e }) =>
      videoCost(e.pricing, request.duration ?? videoAdapterOf(services, e)!.options(e.upstreamModel).defaultDuration, request),
    ),
  );
  const id = `job-${randomBytes(12).toString('hex')}`;
  const reservedUntil = services.clock().getTime() + services.policy.maxAgeMs + RESERVATION_GRACE_MS;
  const reservation = await services.spend.reserve(key, () => ({ usd: ceiling }), { id, expiresAt: reservedUntil, stored: true });

  const now = services.clock().toISOString();
  const job: VideoJobRow = {
    id,
    organization_id: key.organization_id,
    workspace_id: key.workspace_id,
    api_key_hash: key.hash,
    generation_id: newGenerationId(services.clock()),
    request_id: context.requestId,
    model: model.id,
    provider: first.endpoint.provider,
    upstream_model: first.endpoint.upstreamModel,
    credential_id: first.credential?.id ?? null,
    request: JSON.stringify(request),
    status: 'pending',
    upstream_id: null,
    error: null,
    failures: 0,
    seconds: null,
    outputs: null,
    cost: null,
    next_poll_at: now,
    claimed_until: now,
    claim_token: null,
    user_agent: context.userAgent,
    origin: context.origin,
    created_at: now,
    updated_at: now,
    fallbacks: JSON.stringify(
      fallbacks.map((a) => ({
        provider: a.endpoint.provider,
        upstream_model: a.endpoint.upstreamModel,
        credential_id: a.credential?.id ?? null,
      })),
    ),
    // Stored with the job: any instance that reads the key's spend counts it until the job ends.
    reserved_usd: ceiling,
    reserved_until: new Date(reservedUntil).toISOString(),
  };
  try {
    await insertVideoJob(services.db, job);
  } catch (error) {
    void reservation.release();
    throw error;
  }
  return job;
}
