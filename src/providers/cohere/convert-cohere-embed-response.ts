import type { UpstreamEmbeddings } from '../../protocol/embeddings.js';
import { isRecord } from '../../util/is-record.js';
import { readVector } from '../shared/http-embeddings-adapter.js';
import { readCount } from '../shared/read-rerank-scores.js';

/** The float vectors, id and billed input tokens of a v2 embed answer (`embeddings.float`); undefined when it holds none. */
export function convertCohereEmbedResponse(body: unknown): UpstreamEmbeddings | undefined {
  if (!isRecord(body) || !isRecord(body.embeddings) || !Array.isArray(body.embeddings.float)) return undefined;
  const vectors: number[][] = [];
  for (const item of body.embeddings.float) {
    const vector = readVector(item);
    if (!vector) return undefined;
    vectors.push(vector);
  }
  const billed = isRecord(body.meta) && isRecord(body.meta.billed_units) ? body.meta.billed_units : {};
  const tokens = readCount(billed.input_tokens);
  return {
    ...(typeof body.id === 'string' ? { id: body.id } : {}),
    vectors,
    usage: tokens !== undefined ? { prompt_tokens: tokens } : {},
  };
}
