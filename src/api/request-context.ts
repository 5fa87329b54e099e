import { setMaxListeners } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RunContext } from '../chat/run.js';
import { wantsServiceMetadata } from '../chat/service-metadata.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once a run of the request wrote its ledger row: a refusal is then not recorded again (api/refusals/record-refusals.ts). */
    generationRecorded: boolean;
  }
}

/** Where a request came from, for the ledger, whether it asked for service_metadata, and how its run tells the request that its row is written. */
export function runContext(request: FastifyRequest): RunContext {
  const referer = request.headers['http-referer'] ?? request.headers.referer;
  const title = request.headers['x-openrouter-title'] ?? request.headers['x-title'];
  return {
    requestId: request.id,
    origin: typeof referer === 'string' ? referer : null,
    appTitle: typeof title === 'string' && title.trim() ? title.trim().slice(0, 100) : null,
    userAgent: request.headers['user-agent'] ?? null,
    wantsMetadata: wantsServiceMetadata(request.headers),
    recorded: () => {
      request.generationRecorded = true;
    },
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
