import type { EmbeddingItem } from '../protocol/embeddings.js';
import { UpstreamError } from '../protocol/upstream.js';

/** How the client asked for its vectors: JSON floats, or OpenAI's base64 of little-endian float32s. */
export type EncodingFormat = 'float' | 'base64';

/**
 * Checks an upstream's vectors before they are billed and answered: all of
 * one length, and that length the `dimensions` asked for. An answer that
 * fails is malformed, so the plan moves on to the next endpoint.
 */
export function checkVectors(vectors: readonly number[][], dimensions: number | undefined): void {
  const length = dimensions ?? vectors[0]?.length;
  const odd = vectors.findIndex((vector) => vector.length !== length);
  if (odd >= 0) {
    const wanted = dimensions !== undefined ? `the ${dimensions} dimensions asked for` : `the ${length} of the first`;
    throw new UpstreamError('malformed', `upstream answered embedding ${odd} with ${vectors[odd]!.length} dimensions, not ${wanted}`);
  }
}

/** A vector as OpenAI's base64 encoding carries it: its float32 values, little-endian, in base64. */
export function encodeBase64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [i, value] of vector.entries()) bytes.writeFloatLE(value, i * 4);
  return bytes.toString('base64');
}

/** The response's `data`: one item per vector, in input order, encoded as asked. */
export function embeddingItems(vectors: readonly number[][], format: EncodingFormat): EmbeddingItem[] {
  return vectors.map((vector, index) => ({
    object: 'embedding',
    index,
    embedding: format === 'base64' ? encodeBase64(vector) : [...vector],
  }));
}
