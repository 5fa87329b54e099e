import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { modelTask } from '../../catalog/model-task.js';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { UpstreamError } from '../../protocol/upstream.js';
import { findVideoJob } from '../../store/repositories/video-jobs.js';
import { submitVideo } from '../../videos/submit-video.js';
import type { VideoPoller } from '../../videos/video-poller.js';
import type { VideoServices } from '../../videos/video-services.js';
import { videoAdapterOf, videoTarget } from '../../videos/video-target.js';
import { inReach, keyReach } from '../../workspaces/management-reach.js';
import { clientGone } from '../request-context.js';
import { toJobRecord } from './job-record.js';
import { ContentQuery, JobParams, VideoRequestBody } from './schemas.js';
import { toVideoModelRecord } from './video-model-record.js';

/** POST /videos, GET /videos/{jobId}, its /content, and GET /videos/models. */
export function videoRoutes(
  services: VideoServices & { auth: Authenticator; poller: Pick<VideoPoller, 'wake'> },
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const auth = { onRequest: services.auth.requireKey };
    const apiBase = (request: { protocol: string; host: string }) => `${request.protocol}://${request.host}${app.prefix}`;
    // A job is its workspace's (its download goes out on that workspace's BYOK credential): another workspace's key gets 404.
    const jobInReach = async (request: FastifyRequest, jobId: string) => {
      const caller = callerKey(request);
      return inReach(keyReach(caller), await findVideoJob(services.db, jobId, caller.organization_id));
    };

    app.post('/videos', { ...auth, schema: { body: VideoRequestBody } }, async (request, reply) => {
      const key = callerKey(request);
      const referer = request.headers['http-referer'] ?? request.headers.referer;
      const job = await submitVideo(services, key, request.body, {
        requestId: request.id,
        origin: typeof referer === 'string' ? referer : null,
        userAgent: request.headers['user-agent'] ?? null,
      });
      services.poller.wake();
      const { id, polling_url, status } = toJobRecord(job, apiBase(request));
      return reply.code(202).send({ id, polling_url, status });
    });

    // Static, so it wins over /videos/:jobId.
    app.get('/videos/models', auth, async () => {
      const data = services.catalog.listModels().flatMap((model) => {
        if (modelTask(model) !== 'video') return [];
        const endpoint = model.endpoints.find((e) => videoAdapterOf(services, e) !== undefined);
        return endpoint ? [toVideoModelRecord(model, endpoint, videoAdapterOf(services, endpoint)!.options(endpoint.upstreamModel))] : [];
      });
      return { data };
    });

    app.get('/videos/:jobId', { ...auth, schema: { params: JobParams } }, async (request) => {
      const job = await jobInReach(request, request.params.jobId);
      if (!job) throw Errors.notFound('Video generation job');
      return toJobRecord(job, apiBase(request));
    });

    app.get('/videos/:jobId/content', { ...auth, schema: { params: JobParams, querystring: ContentQuery } }, async (request, reply) => {
      const job = await jobInReach(request, request.params.jobId);
      const index = request.query.index ?? 0;
      if (!job) throw Errors.notFound('Video generation job');
      if (job.status !== 'completed' || job.upstream_id === null) throw Errors.notFound('Video content (the job has not completed)');
      if (index >= (job.outputs ?? 1)) throw Errors.notFound(`Video content at index ${index}`);
      const found = videoTarget(services, job);
      if (!found) throw Errors.upstreamFailed({ provider_name: job.provider }, job.provider, 'the provider is no longer configured');
      try {
        const content = await found.adapter.content(job.upstream_id, index, found.target, { signal: clientGone(reply) });
        void reply.header('content-type', content.contentType);
        if (content.contentLength !== null) void reply.header('content-length', content.contentLength);
        return reply.send(content.body);
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        throw Errors.upstreamFailed({ provider_name: job.provider }, job.provider, `video content unavailable (${error.message})`);
      }
    });
  };
}
