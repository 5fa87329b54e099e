import { isRecord } from '../../util/is-record.js';

/** A rerank request that passed the simulator's checks, in the shape Cohere and Jina share. */
export interface SimRerankRequest {
  model: string;
  query: string;
  documents: string[];
  top_n?: number;
  return_documents?: boolean;
}

export type RerankValidation = { ok: true; request: SimRerankRequest } | { ok: false; message: string };

/** The checks both real APIs make before ranking, with the model name already stripped of its knobs. */
export function validateRerankRequest(body: unknown, model: string | undefined): RerankValidation {
  if (!isRecord(body)) return { ok: false, message: 'invalid request: body must be a JSON object' };
  if (!model) return { ok: false, message: 'invalid request: model is required' };
  if (typeof body.query !== 'string' || body.query.trim() === '') return { ok: false, message: 'invalid request: query must not be empty' };
  const { documents, top_n, return_documents } = body;
  if (!Array.isArray(documents) || documents.length === 0)
    return { ok: false, message: 'invalid request: list of documents must not be empty' };
  if (!documents.every((d): d is string => typeof d === 'string'))
    return { ok: false, message: 'invalid request: documents must be strings' };
  if (top_n !== undefined && !(Number.isInteger(top_n) && (top_n as number) >= 1))
    return { ok: false, message: 'invalid request: top_n must be at least 1' };
  return {
    ok: true,
    request: {
      model,
      query: body.query,
      documents,
      ...(top_n !== undefined ? { top_n: top_n as number } : {}),
      ...(typeof return_documents === 'boolean' ? { return_documents } : {}),
    },
  };
}
