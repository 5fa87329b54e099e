import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { parseInternSettings } from '../../interns/intern-settings.js';
import { isGatewayError } from '../../protocol/gateway-error.js';
import type { Reach } from '../../store/reach.js';
import type { ApiKeyRow } from '../../store/repositories/api-keys.js';
import { findInternSession, insertInternSession } from '../../store/repositories/intern-sessions.js';
import type { InternRow } from '../../store/repositories/interns.js';
import type { InternSessionOrigin } from '../../store/schema.js';
import { newInternSessionId } from '../../util/ids.js';
import { keyReach } from '../../workspaces/management-reach.js';
import { acceptWithin } from './accept-within.js';
import { type InternServices, requireRuntime } from './intern-services.js';
import { INTERN_BODY_LIMIT, InternParams, InvokeBody } from './schemas.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];
export type InternLookup = (reach: Reach, internId: string) => Promise<InternRow>;

/** The intern, or 500 intern_unreachable when the lookup itself fails (spec 7.3); 404 when absent. */
export async function lookupIntern(internOf: InternLookup, reach: Reach, internId: string): Promise<InternRow> {
  try {
    return await internOf(reach, internId);
  } catch (error) {
    if (isGatewayError(error)) throw error;
    throw Errors.internLookupFailed();
  }
}

/** A session issued to this key on this intern from the same origin; any other (or none) is 404. */
export async function ownedSession(
  services: Pick<InternServices, 'db'>,
  intern: InternRow,
  key: ApiKeyRow,
  sessionId: string,
  origin: InternSessionOrigin,
): Promise<string> {
  const session = await findInternSession(services.db, sessionId);
  if (!session || session.intern_id !== intern.id || session.api_key_hash !== key.hash || session.origin !== origin) {
    throw Errors.internNotFound(`Session ${sessionId}`);
  }
  return session.id;
}

/** A new session issued to this key. */
export async function newSession(
  services: Pick<InternServices, 'db' | 'clock'>,
  intern: InternRow,
  key: ApiKeyRow,
  origin: InternSessionOrigin,
): Promise<string> {
  const id = newInternSessionId();
  await insertInternSession(services.db, {
    id,
    intern_id: intern.id,
    organization_id: intern.organization_id,
    api_key_hash: key.hash,
    origin,
    created_at: services.clock().toISOString(),
  });
  return id;
}

/** 409 unless running, then 429 past the intern's turn quota (Retry-After set on the reply). */
export async function admitTurn(
  services: Pick<InternServices, 'turns'>,
  intern: InternRow,
  setRetryAfter: (seconds: number) => void,
): Promise<void> {
  if (intern.status !== 'running') throw Errors.internNotReady(intern.status);
  const quota = parseInternSettings(intern.settings).turns_per_minute;
  const decision = await services.turns(intern.id, quota);
  if (!decision.allowed) {
    setRetryAfter(decision.retryAfterSeconds);
    throw Errors.internRateLimited(quota ?? 0);
  }
}

/** POST /interns/{internId}/invoke (spec 4.3): starts or steers a self-drive run and answers at once. */
export function addInvokeRoute(app: App, services: InternServices, internOf: InternLookup): void {
  app.post(
    '/interns/:internId/invoke',
    { bodyLimit: INTERN_BODY_LIMIT, schema: { params: InternParams, body: InvokeBody } },
    async (request, reply) => {
      const key = callerKey(request);
      const { input, session_id } = request.body;
      const accepted = await acceptWithin(
        services.acceptTimeoutMs,
        async (signal) => {
          const intern = await lookupIntern(internOf, keyReach(key), request.params.internId);
          const given = session_id === undefined ? undefined : await ownedSession(services, intern, key, session_id, 'invoke');
          await admitTurn(services, intern, (seconds) => void reply.header('retry-after', String(seconds)));
          const sessionId = given ?? (await newSession(services, intern, key, 'invoke'));
          const result = await requireRuntime(services).submit({
            internId: intern.id,
            sessionId,
            input,
            approvalMode: 'self-drive',
            apiKeyHash: key.hash,
            organizationId: key.organization_id,
            workspaceId: intern.workspace_id,
            signal,
          });
          return { session_id: sessionId, status: result.status };
        },
        () => Errors.internAcceptTimeout(Math.round(services.acceptTimeoutMs / 1000)),
      );
      return reply.code(202).send(accepted);
    },
  );
}
