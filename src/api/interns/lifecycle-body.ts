import type { FastifyRequest } from 'fastify';
import { Errors } from '../../http/errors.js';
import { INTERN_BODY_LIMIT } from './schemas.js';

const hasBody = (request: FastifyRequest): boolean =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/**
 * The SDK's lifecycle writes: a non-empty body that does not declare
 * application/json is refused with 415 (not parsed as whatever it says it is).
 * An onRequest hook, so it answers before any parser reads the body.
 */
export async function jsonBodyOnly(request: FastifyRequest): Promise<void> {
  if (!hasBody(request)) return;
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json') throw Errors.internUnsupportedMediaType(type || 'no Content-Type');
}

/** The SDK's provision and suspend take no body: one carrying any field is refused with 400 rather than ignored. */
export function refuseFields(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0) return;
  throw Errors.internBadRequest('this operation takes no request body; send none, or {}');
}

/** The route options of every lifecycle write (create, update, provision, suspend, delete): at most 1 MiB, and JSON when there is a body. */
export const LIFECYCLE_WRITE = { bodyLimit: INTERN_BODY_LIMIT, onRequest: jsonBodyOnly };
