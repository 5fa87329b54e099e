import { Errors } from '../http/errors.js';

/**
 * A failure while reading a multipart form (@fastify/multipart's and
 * busboy's) as the client is told of it: the route's own error for each
 * limit code (a 413 naming its limit), a field name the parser refuses or a
 * cut or malformed form a 400; the catalogue's errors pass as they are.
 */
export function multipartFailure(error: unknown, limits: Readonly<Record<string, () => unknown>>): unknown {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  const limit = typeof code === 'string' ? limits[code] : undefined;
  if (limit) return limit();
  if (code === 'FST_PROTO_VIOLATION') return Errors.invalidRequest('a field name of the form is not allowed');
  if (error instanceof Error && !('statusCode' in error)) return Errors.invalidRequest(`the multipart body is malformed: ${error.message}`);
  return error;
}
