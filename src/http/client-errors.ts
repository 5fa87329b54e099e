import { maxHeaderSize, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayError } from '../protocol/gateway-error.js';
import type { ClientLimits } from './client-limits.js';
import { ERROR_CODE_HEADER, envelope, sendError, toGatewayError } from './error-envelope.js';
import { Errors } from './errors.js';

/** Node's fixed limit on the extensions of one chunk of a chunked body (lib/_http_server.js answers 413 past it). */
const CHUNK_EXTENSIONS_LIMIT = 16 * 1024;

/** What a connection-level failure means for the client: Node's own answers (408, 413, 431, 400), with the gateway's messages. */
export function connectionError(
  error: Pick<ConnectionError, 'code'> & { reason?: unknown },
  limits: Pick<ClientLimits, 'headersTimeoutMs' | 'bodyTimeoutMs'>,
): GatewayError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return Errors.clientTimeout(limits.headersTimeoutMs, limits.bodyTimeoutMs);
    case 'HPE_HEADER_OVERFLOW':
      return Errors.headersTooLarge(maxHeaderSize);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return Errors.chunkExtensionsTooLarge(CHUNK_EXTENSIONS_LIMIT);
  }
  // llhttp's reason is a fixed phrase ("Invalid method encountered"), never the client's bytes.
  return Errors.malformedHttp(typeof error.reason === 'string' ? error.reason : 'the request could not be parsed');
}

/**
 * Fastify's clientErrorHandler: what Node's HTTP server reports on a
 * connection before any route runs (a request that timed out, headers too
 * large, bytes that are not HTTP). Answered as Node does, once and only
 * when no response has started on the connection, then the connection is
 * closed: a client that broke the protocol cannot be trusted with the next
 * request on it.
 */
export function clientErrorHandler(limits: Pick<ClientLimits, 'headersTimeoutMs' | 'bodyTimeoutMs'>) {
  return function onClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
    // A reset connection has no one left to tell.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const gatewayError = connectionError(error, limits);
    this.log.debug({ err: error, status: gatewayError.statusCode, code: gatewayError.code }, 'client error');
    // Node's own rule (http server socketOnError): never write into a response already under way.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) socket.write(rawResponse(gatewayError));
    socket.destroy();
  };
}

function rawResponse(error: GatewayError): string {
  const body = JSON.stringify(envelope(error));
  return (
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode] ?? ''}\r\n` +
    `content-type: application/json; charset=utf-8\r\n${ERROR_CODE_HEADER}: ${error.code}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}

const shown = (url: string) => (url.length > 200 ? `${url.slice(0, 200)}…` : url);

/**
 * Fastify's frameworkErrors: what its router answers itself, before any
 * route or hook: a URL that does not decode (`/%zz`), a path parameter over
 * maxParamLength (414).
 */
export function frameworkErrorHandler(bodyLimit: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    let gatewayError: GatewayError;
    if (error.code === 'FST_ERR_BAD_URL') gatewayError = Errors.badUrl(shown(request.url));
    else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
      gatewayError = Errors.pathParameterTooLong(request.server.initialConfig.maxParamLength ?? 100);
    else gatewayError = toGatewayError(error, bodyLimit);
    sendError(reply, gatewayError);
  };
}
