import type { EmbeddingsRequest } from '../../protocol/embeddings.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { inputTypeFor } from '../shared/http-embeddings-adapter.js';

/** The reference's input types as Gemini's TaskType names them. */
const TASK_TYPES: Record<string, string> = {
  search_query: 'RETRIEVAL_QUERY',
  search_document: 'RETRIEVAL_DOCUMENT',
  classification: 'CLASSIFICATION',
  clustering: 'CLUSTERING',
};

/**
 * The body of `models/{model}:batchEmbedContents`: one EmbedContentRequest
 * per text, each naming the model, with the task type and the output
 * dimensionality when asked. Gemini's task types are upper-case enum names,
 * so one of its own written in lower case ("semantic_similarity") is sent upper-cased.
 */
export function convertToGeminiEmbedRequest(
  request: EmbeddingsRequest,
  target: Pick<UpstreamTarget, 'upstreamModel'>,
): { requests: Record<string, unknown>[] } {
  const texts = request.input.kind === 'text' ? request.input.texts : [];
  const taskType = inputTypeFor(TASK_TYPES, request.input_type)?.toUpperCase();
  return {
    requests: texts.map((text) => ({
      model: `models/${target.upstreamModel}`,
      content: { parts: [{ text }] },
      ...(taskType !== undefined ? { taskType } : {}),
      ...(request.dimensions !== undefined ? { outputDimensionality: request.dimensions } : {}),
    })),
  };
}
