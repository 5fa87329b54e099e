import type { UpstreamEmbeddings } from '../../protocol/embeddings.js';
import { isRecord } from '../../util/is-record.js';
import { readVector } from '../shared/http-embeddings-adapter.js';

/**
 * The vectors of a batchEmbedContents answer (`embeddings` of `{values}`, in
 * request order). Gemini reports no usage there: the gateway counts the tokens.
 */
export function convertGeminiEmbedResponse(body: unknown): UpstreamEmbeddings | undefined {
  if (!isRecord(body) || !Array.isArray(body.embeddings)) return undefined;
  const vectors: number[][] = [];
  for (const item of body.embeddings) {
    const vector = isRecord(item) ? readVector(item.values) : undefined;
    if (!vector) return undefined;
    vectors.push(vector);
  }
  return { vectors, usage: {} };
}
