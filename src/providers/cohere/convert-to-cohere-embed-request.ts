import type { EmbeddingsRequest } from '../../protocol/embeddings.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';

/**
 * The v2 embed body: texts, floats, the output dimension when asked.
 * `input_type` is required by Cohere's v3 and later models, and its words
 * are the reference's (search_document, search_query, classification,
 * clustering): a request without one is embedded as documents, the common
 * case of a batch of texts.
 */
export function convertToCohereEmbedRequest(
  request: EmbeddingsRequest,
  target: Pick<UpstreamTarget, 'upstreamModel'>,
): Record<string, unknown> {
  return {
    model: target.upstreamModel,
    texts: request.input.kind === 'text' ? request.input.texts : [],
    input_type: request.input_type ?? 'search_document',
    embedding_types: ['float'],
    ...(request.dimensions !== undefined ? { output_dimension: request.dimensions } : {}),
  };
}
