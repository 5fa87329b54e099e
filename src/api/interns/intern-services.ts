import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type Authenticator, callerKey } from '../../http/authenticate.js';
import { sendError, toGatewayError } from '../../http/error-envelope.js';
import { asInternError, Errors } from '../../http/errors.js';
import { type FlagCache, membershipKey } from '../../interns/flag-cache.js';
import type { InternRuntime } from '../../interns/intern-runtime.js';
import type { TurnLimiter } from '../../interns/turn-limiter.js';
import type { Database } from '../../store/schema.js';
import type { Clock } from '../../util/clock.js';
import { INTERN_BODY_LIMIT } from './schemas.js';

export interface InternServices {
  db: Kysely<Database>;
  clock: Clock;
  auth: Authenticator;
  /** Absent when this gateway runs no interns: provisioning and runs answer 502. */
  runtime: InternRuntime | undefined;
  turns: TurnLimiter;
  /** Spec 7.3's 408: how long an invoke may take to be accepted (60 s; tests shorten it). */
  acceptTimeoutMs: number;
  /** Organizations in the programme, by organization id. */
  programme: FlagCache;
  /** Active memberships, by membershipKey(organization, user). */
  members: FlagCache;
  /** Whether a chat request could name this model here: an intern's model is checked when it is set, not at its first run. */
  servesModel: (model: string) => boolean;
}

/** 400 naming `model` when this gateway could not run a chat with it. */
export function checkInternModel(services: InternServices, model: string | null | undefined): void {
  if (model !== null && model !== undefined && !services.servesModel(model)) {
    throw Errors.internBadRequest(`model: ${model} is not a chat model this gateway serves (GET /models lists them)`);
  }
}

export function requireRuntime(services: InternServices): InternRuntime {
  if (!services.runtime) throw Errors.internUnreachable('this gateway runs no intern runtime');
  return services.runtime;
}

/**
 * Every /interns path: a valid key (401 otherwise), an organization in the
 * programme (404 as for an unknown route otherwise, spec 5.4), and a key whose
 * creator is still a member (403, spec 5.5). Both answers come from memory.
 */
export function internGate(services: InternServices) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await services.auth.requireKey(request, reply);
    const key = callerKey(request);
    if (!(await services.programme.has(key.organization_id))) {
      throw Errors.internNotFound(`Route ${request.method} ${request.url.split('?')[0] ?? request.url}`);
    }
    if (key.creator_user_id !== null && !(await services.members.has(membershipKey(key.organization_id, key.creator_user_id)))) {
      throw Errors.internKeyCreatorNotMember();
    }
  };
}

/** Errors of intern paths leave in spec 7.3's terms. */
export function installInternErrors(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const gatewayError = asInternError(toGatewayError(error, INTERN_BODY_LIMIT));
    if (gatewayError.statusCode >= 500)
      request.log.error({ err: error, reqId: request.id, code: gatewayError.code }, 'intern request failed');
    sendError(reply, gatewayError);
  });
}
