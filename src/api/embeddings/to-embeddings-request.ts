import { Errors } from '../../http/errors.js';
import type { EmbeddingsInput, EmbeddingsRequest } from '../../protocol/embeddings.js';
import { type EmbeddingsRequestBody, MAX_EMBEDDING_INPUTS } from './schemas.js';

/** The reference's four input shapes as one list: a single string or token array is a list of one. */
export function toEmbeddingsInput(input: EmbeddingsRequestBody['input']): EmbeddingsInput {
  if (typeof input === 'string') return { kind: 'text', texts: [input] };
  if (input.every((item): item is string => typeof item === 'string')) return { kind: 'text', texts: input };
  if (input.every((item): item is number => typeof item === 'number')) return { kind: 'tokens', tokens: [input] };
  return { kind: 'tokens', tokens: input as number[][] };
}

/** The fields an embeddings request uses, picked so that tolerated extras never reach the flow; too many inputs are a 400. */
export function toEmbeddingsRequest({ model, input, dimensions, input_type, provider, user }: EmbeddingsRequestBody): EmbeddingsRequest {
  const items = toEmbeddingsInput(input);
  const count = items.kind === 'text' ? items.texts.length : items.tokens.length;
  if (count > MAX_EMBEDDING_INPUTS) throw Errors.invalidRequest(`input must have at most ${MAX_EMBEDDING_INPUTS} items`);
  return {
    model,
    input: items,
    ...(dimensions !== undefined ? { dimensions } : {}),
    ...(input_type !== undefined ? { input_type } : {}),
    ...(provider !== undefined ? { provider } : {}),
    ...(user !== undefined ? { user } : {}),
  };
}
