import { setMaxListeners } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RunContext } from '../chat/run.js';
import { wantsServiceMetadata } from '../chat/service-metadata.js';

/** Where a request came from, for the ledger, and whether it asked for service_metadata. */
export function runContext(request: FastifyRequest): RunContext {
  const referer = request.headers['http-referer'] ?? request.headers.referer;
  return {
    requestId: request.id,
    origin: typeof referer === 'string' ? referer : null,
    userAgent: request.headers['user-agent'] ?? null,
    wantsMetadata: wantsServiceMetadata(request.headers),
  };
}

/**
 * Aborts when the client goes away before the response has been fully sent,
 * or, with reason SHUTTING_DOWN, when the gateway's stop interrupts it.
 */
export function clientGone(reply: FastifyReply, stop?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  // A run's parallel upstream calls (fusion's analysts, server tools) each listen to it while they last.
  setMaxListeners(0, controller.signal);
  const interrupt = () => controller.abort(stop?.reason);
  stop?.addEventListener('abort', interrupt, { once: true });
  reply.raw.once('close', () => {
    stop?.removeEventListener('abort', interrupt);
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
