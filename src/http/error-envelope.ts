import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type GatewayError, isGatewayError } from '../protocol/gateway-error.js';
import { isDatabaseUnavailable } from '../store/database-unavailable.js';
import { Errors } from './errors.js';

/** The spec's 7.1 error body. */
export function envelope(error: GatewayError): {
  error: { code: number; message: string; metadata?: Record<string, unknown> };
  service_metadata?: unknown;
} {
  return {
    error: {
      code: error.statusCode,
      message: error.message,
      ...(error.metadata ? { metadata: error.metadata } : {}),
    },
    ...(error.serviceMetadata !== undefined ? { service_metadata: error.serviceMetadata } : {}),
  };
}

/** The response header that names the error's catalogue entry (GW_ERR_…, docs/errors.md); the body keeps the spec's shape. */
export const ERROR_CODE_HEADER = 'x-error-code';

/** Answers with the error: its status, its code name in X-Error-Code, the envelope. */
export function sendError(reply: FastifyReply, error: GatewayError): void {
  void reply.code(error.statusCode).header(ERROR_CODE_HEADER, error.code).send(envelope(error));
}

/**
 * The error answer of a stream that failed before its first byte, written on
 * the hijacked reply's socket: the status, X-Error-Code and `body` (the
 * envelope unless the route's protocol has its own error shape).
 */
export function writeStreamRefusal(reply: FastifyReply, error: unknown, body: (error: GatewayError) => unknown = envelope): void {
  const gatewayError = toGatewayError(error, 0);
  reply.raw.writeHead(gatewayError.statusCode, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': reply.request.id,
    [ERROR_CODE_HEADER]: gatewayError.code,
  });
  reply.raw.end(JSON.stringify(body(gatewayError)));
}

/** What a type the route does not take is answered with: the type its scope takes (an upload route's, multipart), the type sent. */
function unsupportedMediaType(request: FastifyRequest | undefined): GatewayError {
  const accepted = request?.server.hasContentTypeParser('multipart/form-data') ? 'multipart/form-data' : 'application/json';
  const sent = request?.headers['content-type']?.slice(0, 100) || 'a body without a content type';
  return Errors.unsupportedMediaType(accepted, sent);
}

/** What a thrown value means for the client (on `request`, when given: a 415 names the type its route takes); anything unexpected is a 500 with no detail. */
export function toGatewayError(error: unknown, bodyLimit: number, request?: FastifyRequest): GatewayError {
  if (isGatewayError(error)) return error;
  const fe = error as Partial<FastifyError> & { status?: number };
  const status = fe.statusCode ?? fe.status;
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return Errors.payloadTooLarge(bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType(request);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return Errors.invalidRequest(fe.message ?? 'Invalid request body');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return Errors.malformedJson('the body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return Errors.malformedJson('the body is empty');
  }
  if (error instanceof SyntaxError && status === 400) return Errors.malformedJson(error.message);
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return Errors.requestRejected(status, undefined, fe.message ?? 'Bad request');
  }
  if (isDatabaseUnavailable(error)) return Errors.databaseUnavailable();
  return Errors.internal();
}

/**
 * The error handler of a group of routes: every thrown error as the client's
 * GatewayError, logged by how it failed, and sent in `shape` (the envelope,
 * or another protocol's error body, as POST /messages sends Anthropic's).
 */
export function errorHandler(bodyLimit: number, shape: (error: GatewayError, request: FastifyRequest) => unknown = envelope) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply): void => {
    const gatewayError = toGatewayError(error, bodyLimit, request);
    // A client that hung up causes the failure (its upstream call is aborted) and cannot read it: not the gateway's error.
    const code = gatewayError.code;
    if (reply.raw.destroyed)
      request.log.info({ reqId: request.id, status: gatewayError.statusCode, code }, 'client closed the connection before the answer');
    // An unreachable database is told once per outage (store/postgres-pool.ts), not once per request it fails.
    else if (isDatabaseUnavailable(error))
      request.log.debug({ err: error, reqId: request.id, code }, 'request failed: the database is unavailable');
    else if (gatewayError.statusCode >= 500) request.log.error({ err: error, reqId: request.id, code }, 'request failed');
    void reply.code(gatewayError.statusCode).header(ERROR_CODE_HEADER, code).send(shape(gatewayError, request));
  };
}

/** Every error and every unknown route leaves as the envelope. */
export function installErrorEnvelope(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler(errorHandler(bodyLimit));
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, Errors.routeNotFound(request.method, request.url.split('?')[0] ?? request.url));
  });
}
