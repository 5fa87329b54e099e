import type { EmbeddingsRequest } from '../../protocol/embeddings.js';
import type { UpstreamTarget } from '../../protocol/upstream.js';
import { inputTypeFor } from '../shared/http-embeddings-adapter.js';

/** The reference's input types as Jina's `task` names them. */
const TASKS: Record<string, string> = {
  search_query: 'retrieval.query',
  search_document: 'retrieval.passage',
  classification: 'classification',
  clustering: 'separation',
};

/** Jina's POST /v1/embeddings body: texts, floats (`embedding_type`), the task and dimensions when asked. */
export function convertToJinaEmbeddingsRequest(
  request: EmbeddingsRequest,
  target: Pick<UpstreamTarget, 'upstreamModel'>,
): Record<string, unknown> {
  const task = inputTypeFor(TASKS, request.input_type);
  return {
    model: target.upstreamModel,
    input: request.input.kind === 'text' ? request.input.texts : [],
    embedding_type: 'float',
    ...(task !== undefined ? { task } : {}),
    ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}),
  };
}
