import { randomBytes } from 'node:crypto';
import { modelTask } from '../catalog/model-task.js';
import { Errors } from '../http/errors.js';
import type { ApiKeyRow } from '../store/repositories/api-keys.js';
import { insertVideoJob, type VideoJobRow } from '../store/repositories/video-jobs.js';
import { newGenerationId } from '../util/ids.js';
import type { VideoRequest } from './video-request.js';
import type { VideoServices } from './video-services.js';

export interface SubmitContext {
  requestId: string;
  origin: string | null;
  userAgent: string | null;
}

/**
 * Stores a new job for the poller to submit upstream: the request is
 * answered at once, and a job outlives the instance that took it. An unknown
 * model is a 404; a model of another task, or one with no video-capable
 * endpoint, is a 400.
 */
export async function submitVideo(services: VideoServices, key: ApiKeyRow, request: VideoRequest, context: SubmitContext): Promise<VideoJobRow> {
  const model = services.catalog.getModel(request.model);
  if (!model) throw Errors.modelNotFound(request.model);
  if (modelTask(model) !== 'video') throw Errors.invalidRequest(`Model ${model.id} is not a video model: send it to its own endpoint`);
  if (!request.prompt && !request.frame_images?.length) throw Errors.invalidRequest('prompt is required unless frame_images are given');
  const endpoint = model.endpoints.find((e) => services.adapters[services.catalog.providers.get(e.provider)?.kind ?? ''] !== undefined);
  if (!endpoint) throw Errors.invalidRequest(`Model ${model.id} has no provider that generates video`);

  const now = services.clock().toISOString();
  const job: VideoJobRow = {
    id: `job-${randomBytes(12).toString('hex')}`,
    organization_id: key.organization_id,
    workspace_id: key.workspace_id,
    api_key_hash: key.hash,
    generation_id: newGenerationId(services.clock()),
    request_id: context.requestId,
    model: model.id,
    provider: endpoint.provider,
    upstream_model: endpoint.upstreamModel,
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
  };
  await insertVideoJob(services.db, job);
  return job;
}
