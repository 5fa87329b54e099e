import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Reach } from '../../store/reach.js';
import { findInternSession, sessionRunsWithSteps } from '../../store/repositories/intern-sessions.js';
import { findIntern, type InternRow, listInterns, updateIntern } from '../../store/repositories/interns.js';
import type { InternStatus } from '../../store/schema.js';
import { keyReach, workspaceInReach } from '../../workspaces/management-reach.js';
import { addInternChatRoute } from './chat-route.js';
import { addCreateRoute } from './create-route.js';
import { decodeCursor, encodeCursor, toInternRecord } from './intern-record.js';
import { checkInternModel, type InternServices, installInternErrors, internGate, requireRuntime } from './intern-services.js';
import { addInvokeRoute } from './invoke-route.js';
import { LIFECYCLE_WRITE, refuseFields } from './lifecycle-body.js';
import { INTERN_STATUSES, InternParams, ListInternsQuery, SessionParams, UpdateInternBody } from './schemas.js';
import { toSessionRecord } from './session-record.js';
import { mergeSettings } from './settings-body.js';

const DEFAULT_PAGE = 50;

/** Statuses from which each lifecycle operation may start. */
const CAN_PROVISION: readonly InternStatus[] = ['queued', 'failed', 'stopped'];
const CAN_SUSPEND: readonly InternStatus[] = ['provisioning', 'running', 'failed'];

function parseStatuses(value: string | undefined): InternStatus[] | undefined {
  if (value === undefined) return undefined;
  const statuses = [...new Set(value.split(',').map((s) => s.trim()))];
  if (statuses.length > 8) throw Errors.internBadRequest('query parameter status must list at most 8 statuses');
  for (const s of statuses) {
    if (!(INTERN_STATUSES as readonly string[]).includes(s)) {
      throw Errors.internBadRequest(`query parameter status: ${JSON.stringify(s)} is not one of ${INTERN_STATUSES.join(', ')}`);
    }
  }
  return statuses as InternStatus[];
}

/** The interns lifecycle (the SDK's interns.*), invoke, intern chat and session transcripts, all behind the programme gate. */
export function internsRoutes(services: InternServices): FastifyPluginAsyncTypebox {
  const { db, clock } = services;

  /** An intern in the key's reach (keyReach): another workspace's is as absent as a missing one. */
  async function internOf(reach: Reach, internId: string): Promise<InternRow> {
    const intern = await findIntern(db, reach, internId);
    if (!intern) throw Errors.internNotFound(`Intern ${internId}`);
    return intern;
  }

  return async (app) => {
    installInternErrors(app);
    app.addHook('onRequest', internGate(services));

    app.get('/interns', { schema: { querystring: ListInternsQuery } }, async (request) => {
      const key = callerKey(request);
      const { limit = DEFAULT_PAGE, status, starting_after, workspace_id } = request.query;
      const after = starting_after === undefined ? undefined : decodeCursor(starting_after);
      if (starting_after !== undefined && !after)
        throw Errors.internBadRequest('query parameter starting_after is not a cursor this gateway issued');
      const statuses = parseStatuses(status);
      const workspaceId = workspaceInReach(keyReach(key), workspace_id);
      const page = await listInterns(db, key.organization_id, {
        limit,
        ...(statuses ? { statuses } : {}),
        ...(workspaceId !== undefined ? { workspaceId } : {}),
        ...(after ? { after } : {}),
      });
      const last = page.rows.at(-1);
      return {
        data: page.rows.map(toInternRecord),
        has_more: page.hasMore,
        ...(page.hasMore && last ? { next_cursor: encodeCursor(last) } : {}),
      };
    });

    app.get('/interns/:internId', { schema: { params: InternParams } }, async (request) => {
      return toInternRecord(await internOf(keyReach(callerKey(request)), request.params.internId));
    });

    app.patch('/interns/:internId', { ...LIFECYCLE_WRITE, schema: { params: InternParams, body: UpdateInternBody } }, async (request) => {
      const key = callerKey(request);
      const intern = await internOf(keyReach(key), request.params.internId);
      if (intern.status === 'destroying') throw Errors.internStateConflict(intern.status, 'updated');
      const body = request.body;
      checkInternModel(services, body.model);
      const row = await updateIntern(db, key.organization_id, intern.id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.instructions !== undefined ? { instructions: body.instructions } : {}),
        ...(body.model !== undefined ? { model: body.model } : {}),
        ...(body.vault_id !== undefined ? { vault_id: body.vault_id } : {}),
        settings: JSON.stringify(mergeSettings(intern.settings, body)),
        updated_at: clock().toISOString(),
      });
      if (!row) throw Errors.internNotFound(`Intern ${intern.id}`);
      return toInternRecord(row);
    });

    app.delete('/interns/:internId', { ...LIFECYCLE_WRITE, schema: { params: InternParams } }, async (request, reply) => {
      const intern = await internOf(keyReach(callerKey(request)), request.params.internId);
      const runtime = requireRuntime(services);
      if (intern.status === 'destroying') throw Errors.internStateConflict(intern.status, 'deleted');
      await runtime.destroy(intern.id);
      return reply.code(202).send({ deleting: true as const });
    });

    app.post('/interns/:internId/provision', { ...LIFECYCLE_WRITE, schema: { params: InternParams } }, async (request, reply) => {
      refuseFields(request.body);
      const intern = await internOf(keyReach(callerKey(request)), request.params.internId);
      const runtime = requireRuntime(services);
      if (!CAN_PROVISION.includes(intern.status)) throw Errors.internStateConflict(intern.status, 'provisioned');
      await runtime.provision(intern.id);
      return reply.code(202).send({ provisioning: true as const });
    });

    app.post('/interns/:internId/suspend', { ...LIFECYCLE_WRITE, schema: { params: InternParams } }, async (request) => {
      refuseFields(request.body);
      const intern = await internOf(keyReach(callerKey(request)), request.params.internId);
      const runtime = requireRuntime(services);
      // Suspending a stopped intern changes nothing and is not an error.
      if (intern.status === 'stopped') return { suspended: true as const };
      if (!CAN_SUSPEND.includes(intern.status)) throw Errors.internStateConflict(intern.status, 'suspended');
      await runtime.suspend(intern.id);
      return { suspended: true as const };
    });

    app.get('/interns/:internId/sessions/:session_id', { schema: { params: SessionParams } }, async (request) => {
      const key = callerKey(request);
      const intern = await internOf(keyReach(key), request.params.internId);
      const session = await findInternSession(db, request.params.session_id);
      // Only its owner sees a session: anyone else is told it does not exist.
      if (!session || session.intern_id !== intern.id || session.api_key_hash !== key.hash) {
        throw Errors.internNotFound(`Session ${request.params.session_id}`);
      }
      return { data: toSessionRecord(session, await sessionRunsWithSteps(db, session.id)) };
    });

    addCreateRoute(app, services, internOf);
    addInvokeRoute(app, services, internOf);
    addInternChatRoute(app, services, internOf);
  };
}
