import type { VideoAdapter } from '../../protocol/adapters.js';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { parseOpenAIError } from '../openai/parse-openai-error.js';
import { readUpstreamAnswer } from '../shared/read-upstream-body.js';
import { sendUpstreamRequest } from '../shared/send-upstream-request.js';
import { streamedVideo } from '../shared/streamed-video.js';
import { fromOpenAIVideo } from './convert-openai-video.js';
import { toOpenAIVideoRequest } from './convert-to-openai-video-request.js';

const base = (target: UpstreamTarget) => target.baseUrl.replace(/\/+$/, '');
const auth = (target: UpstreamTarget) => ({ ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}), ...target.headers });

/** OpenAI's Videos API: POST /videos, GET /videos/{id}, GET /videos/{id}/content. */
export const openAIVideosAdapter: VideoAdapter = {
  kind: 'openai',
  referenceSlug: 'openai',
  // As OpenAI documents sora-2 and sora-2-pro: 4, 8 or 12 seconds (4 by default), portrait or
  // landscape, with audio; the larger sizes are sora-2-pro's. The first frame goes as input_reference.
  options: (upstreamModel) => {
    const pro = upstreamModel.startsWith('sora-2-pro');
    return {
      resolutions: pro ? ['720p', '1080p'] : ['720p'],
      aspectRatios: ['16:9', '9:16'],
      durations: [4, 8, 12],
      defaultDuration: 4,
      sizes: pro ? ['1280x720', '720x1280', '1792x1024', '1024x1792'] : ['1280x720', '720x1280'],
      frameImages: ['first_frame'],
      referenceImages: 0,
      generateAudio: true,
      seed: false,
      passthrough: [],
    };
  },
  refusal: () => undefined,
  async create(request, target, context) {
    const response = await sendUpstreamRequest({
      url: `${base(target)}/videos`,
      headers: { accept: 'application/json', ...auth(target) },
      body: toOpenAIVideoRequest(request, target.upstreamModel),
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: parseOpenAIError,
    });
    return readUpstreamAnswer(response, fromOpenAIVideo, 'a video object');
  },
  async retrieve(upstreamId, target, context) {
    const response = await sendUpstreamRequest({
      url: `${base(target)}/videos/${encodeURIComponent(upstreamId)}`,
      headers: { accept: 'application/json', ...auth(target) },
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: parseOpenAIError,
    });
    return readUpstreamAnswer(response, fromOpenAIVideo, 'a video object');
  },
  async content(upstreamId, index, target, context) {
    // One video per OpenAI job: any other index has no content.
    if (index !== 0) throw new UpstreamError('status', `no video at index ${index}`, { status: 404 });
    const response = await sendUpstreamRequest({
      url: `${base(target)}/videos/${encodeURIComponent(upstreamId)}/content?variant=video`,
      headers: auth(target),
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: parseOpenAIError,
    });
    return streamedVideo(response);
  },
};
