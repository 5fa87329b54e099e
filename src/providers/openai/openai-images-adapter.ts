import type { ImagesAdapter } from '../../protocol/adapters.js';
import { bearerKey } from '../shared/bearer-key.js';
import { readUpstreamAnswer } from '../shared/read-upstream-body.js';
import { sendUpstreamRequest } from '../shared/send-upstream-request.js';
import { convertOpenAIImagesResponse } from './convert-openai-images-response.js';
import { convertToOpenAIImagesRequest } from './convert-to-openai-images-request.js';
import { parseOpenAIError } from './parse-openai-error.js';

/** OpenAI's image generation (POST {base}/images/generations): GPT image models and DALL·E, base64 or URLs. */
export const openAIImagesAdapter: ImagesAdapter = {
  kind: 'openai',
  supportedParameters: {
    n: { type: 'range', min: 1, max: 10 },
    aspect_ratio: { type: 'enum', values: ['1:1', '3:2', '2:3', 'auto'] },
    quality: { type: 'enum', values: ['auto', 'low', 'medium', 'high'] },
    background: { type: 'enum', values: ['auto', 'transparent', 'opaque'] },
    output_format: { type: 'enum', values: ['png', 'jpeg', 'webp'] },
    output_compression: { type: 'range', min: 0, max: 100 },
  },
  async generate(request, target, context) {
    const response = await sendUpstreamRequest({
      url: `${target.baseUrl.replace(/\/+$/, '')}/images/generations`,
      headers: { accept: 'application/json', ...bearerKey(target), ...target.headers },
      body: convertToOpenAIImagesRequest(request, target, context.endUserId),
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: parseOpenAIError,
    });
    return readUpstreamAnswer(response, convertOpenAIImagesResponse, 'images');
  },
};
