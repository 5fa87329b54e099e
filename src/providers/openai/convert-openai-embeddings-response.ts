import type { UpstreamEmbeddings } from '../../protocol/embeddings.js';
import { isRecord } from '../../util/is-record.js';
import { readVector } from '../shared/http-embeddings-adapter.js';
import { readCount } from '../shared/read-rerank-scores.js';

/**
 * The vectors of an OpenAI embeddings list (`data` of `{index, embedding}`),
 * put in index order, and its prompt_tokens; Jina answers the same shape.
 * Undefined when an item has no float vector, or the indexes are not each
 * position once.
 */
export function convertOpenAIEmbeddingsResponse(body: unknown): UpstreamEmbeddings | undefined {
  if (!isRecord(body) || !Array.isArray(body.data)) return undefined;
  const vectors: number[][] = new Array(body.data.length);
  for (const item of body.data) {
    if (!isRecord(item)) return undefined;
    const vector = readVector(item.embedding);
    const { index } = item;
    if (!vector || !Number.isInteger(index) || (index as number) < 0 || (index as number) >= vectors.length || vectors[index as number])
      return undefined;
    vectors[index as number] = vector;
  }
  const tokens = isRecord(body.usage) ? readCount(body.usage.prompt_tokens) : undefined;
  return {
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
    vectors,
    usage: tokens !== undefined ? { prompt_tokens: tokens } : {},
  };
}
