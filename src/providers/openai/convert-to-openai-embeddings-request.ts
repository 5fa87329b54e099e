import type { EmbeddingsRequest } from '../../protocol/embeddings.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { upstreamEndUser } from '../shared/hash-end-user.js';

/**
 * OpenAI's POST /embeddings body: texts or token arrays, floats always (the
 * gateway encodes base64 itself, so every provider's answer reads the same),
 * `dimensions` when asked, the end user as the gateway's keyed hash.
 * `input_type` has no OpenAI counterpart and is not sent.
 */
export function convertToOpenAIEmbeddingsRequest(
  request: EmbeddingsRequest,
  target: Pick<UpstreamTarget, 'upstreamModel'>,
  endUserId?: string,
): Record<string, unknown> {
  const user = upstreamEndUser(request, endUserId);
  return {
    model: target.upstreamModel,
    input: request.input.kind === 'text' ? request.input.texts : request.input.tokens,
    encoding_format: 'float',
    ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}),
    ...(user !== undefined ? { user } : {}),
  };
}
