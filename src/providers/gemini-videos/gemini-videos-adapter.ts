import { Readable } from 'node:stream';
import type { VideoAdapter, VideoAdapterContext } from '../../protocol/adapters.js';
import { UpstreamError, type UpstreamTarget } from '../../protocol/upstream.js';
import { parseGeminiError } from '../gemini/parse-gemini-error.js';
import { readUpstreamAnswer } from '../shared/read-upstream-body.js';
import { sendUpstreamRequest, type UpstreamResponse } from '../shared/send-upstream-request.js';
import { streamedVideo } from '../shared/streamed-video.js';
import { toVeoRequest, veoRefusal } from './convert-to-veo-request.js';
import { fromVeoOperation, veoSamples } from './convert-veo-operation.js';
import { veoOptions } from './veo-options.js';

const base = (target: UpstreamTarget) => target.baseUrl.replace(/\/+$/, '');
const auth = (target: UpstreamTarget) => ({ ...(target.apiKey ? { 'x-goog-api-key': target.apiKey } : {}), ...target.headers });

/** An operation's URL: its name (`models/{model}/operations/{id}`) below the base URL, each segment escaped. */
const operationUrl = (target: UpstreamTarget, name: string) => `${base(target)}/${name.split('/').map(encodeURIComponent).join('/')}`;

function getOperation(name: string, target: UpstreamTarget, context: VideoAdapterContext): Promise<UpstreamResponse> {
  return sendUpstreamRequest({
    url: operationUrl(target, name),
    headers: { accept: 'application/json', ...auth(target) },
    timeoutMs: target.timeoutMs,
    context,
    parseProviderError: parseGeminiError,
  });
}

/**
 * Google's Veo through the Gemini API (generativelanguage.googleapis.com
 * /v1beta): `models/{model}:predictLongRunning` starts a long-running
 * operation, `GET {name}` reports it until `done`, and each generated
 * video is a file downloaded from its URI with the key (Google redirects
 * the download to storage; the key stays with Google's origin).
 */
export const geminiVideosAdapter: VideoAdapter = {
  kind: 'gemini',
  referenceSlug: 'google-ai-studio',
  options: veoOptions,
  refusal: veoRefusal,
  async create(request, target, context) {
    const response = await sendUpstreamRequest({
      url: `${base(target)}/models/${target.upstreamModel}:predictLongRunning`,
      headers: { accept: 'application/json', ...auth(target) },
      body: toVeoRequest(request),
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: parseGeminiError,
    });
    return readUpstreamAnswer(response, fromVeoOperation, 'a long-running operation');
  },
  async retrieve(upstreamId, target, context) {
    return readUpstreamAnswer(await getOperation(upstreamId, target, context), fromVeoOperation, 'a long-running operation');
  },
  async content(upstreamId, index, target, context) {
    const operation = await getOperation(upstreamId, target, context);
    const samples = await readUpstreamAnswer(
      operation,
      (body) => (fromVeoOperation(body) ? veoSamples(body) : undefined),
      'a long-running operation',
    );
    const sample = samples[index];
    if (!sample) throw new UpstreamError('status', `no video at index ${index}`, { status: 404 });
    if ('bytes' in sample) {
      const bytes = Buffer.from(sample.bytes, 'base64');
      return { contentType: sample.mimeType, contentLength: bytes.length, body: Readable.from([bytes]) };
    }
    const uri = new URL(sample.uri, `${base(target)}/`);
    const response = await sendUpstreamRequest({
      url: uri.href,
      // The key goes to the provider's own origin only, never to a host an answer names.
      headers: uri.origin === new URL(base(target)).origin ? auth(target) : {},
      timeoutMs: target.timeoutMs,
      context,
      parseProviderError: parseGeminiError,
      maxRedirects: 5,
    });
    return streamedVideo(response);
  },
};
