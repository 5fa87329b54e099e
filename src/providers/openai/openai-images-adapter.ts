import type { AdapterContext, ImagesAdapter } from '../../protocol/adapters.js';
import type { ImageRequest } from '../../protocol/images.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { bearerKey } from '../shared/bearer-key.js';
import { readUpstreamAnswer, requireEventStream } from '../shared/read-upstream-body.js';
import { readUpstreamEvents } from '../shared/read-upstream-events.js';
import { sendUpstreamRequest, type UpstreamResponse } from '../shared/send-upstream-request.js';
import { readOpenAIImageStream } from './convert-openai-image-stream.js';
import { convertOpenAIImagesResponse } from './convert-openai-images-response.js';
import { convertToOpenAIImageEditRequest } from './convert-to-openai-image-edit-request.js';
import { convertToOpenAIImagesRequest } from './convert-to-openai-images-request.js';
import { parseOpenAIError } from './parse-openai-error.js';

/** A generation (JSON), or an edit (a multipart form) when the request carries images. */
function send(request: ImageRequest, target: UpstreamTarget, context: AdapterContext, stream: boolean): Promise<UpstreamResponse> {
  const { images } = request;
  const edit = images !== undefined && images.length > 0;
  return sendUpstreamRequest({
    url: `${target.baseUrl.replace(/\/+$/, '')}/images/${edit ? 'edits' : 'generations'}`,
    headers: { accept: stream ? 'text/event-stream' : 'application/json', ...bearerKey(target), ...target.headers },
    ...(edit
      ? { form: convertToOpenAIImageEditRequest({ ...request, images }, target, context.endUserId, stream) }
      : { body: convertToOpenAIImagesRequest(request, target, context.endUserId, stream) }),
    timeoutMs: target.timeoutMs,
    context,
    parseProviderError: parseOpenAIError,
  });
}

/** OpenAI's image generation (POST {base}/images/generations) and edits (POST {base}/images/edits): GPT image models and DALL·E, base64 or URLs, or streamed as server-sent events. */
export const openAIImagesAdapter: ImagesAdapter = {
  kind: 'openai',
  edits: true,
  supportedParameters: {
    n: { type: 'range', min: 1, max: 10 },
    aspect_ratio: { type: 'enum', values: ['1:1', '3:2', '2:3', 'auto'] },
    quality: { type: 'enum', values: ['auto', 'low', 'medium', 'high'] },
    background: { type: 'enum', values: ['auto', 'transparent', 'opaque'] },
    output_format: { type: 'enum', values: ['png', 'jpeg', 'webp'] },
    output_compression: { type: 'range', min: 0, max: 100 },
  },
  async generate(request, target, context) {
    return readUpstreamAnswer(await send(request, target, context, false), convertOpenAIImagesResponse, 'images');
  },
  async stream(request, target, context) {
    const response = await send(request, target, context, true);
    await requireEventStream(response);
    return readOpenAIImageStream(readUpstreamEvents(response));
  },
};
