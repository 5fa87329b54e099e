import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { findCreateKey, forgetCreateKeys, type InternCreateKeyRow, insertCreateKey } from '../../store/repositories/intern-create-keys.js';
import { insertIntern } from '../../store/repositories/interns.js';
import { findWorkspace } from '../../store/repositories/workspaces.js';
import { newInternId } from '../../util/ids.js';
import { keyReach, workspaceInReach } from '../../workspaces/management-reach.js';
import { bodyHash, createKeyOf } from './create-key.js';
import { type InternRecord, toInternRecord } from './intern-record.js';
import { checkInternModel, type InternServices, requireRuntime } from './intern-services.js';
import type { InternLookup } from './invoke-route.js';
import { LIFECYCLE_WRITE } from './lifecycle-body.js';
import { CreateInternBody } from './schemas.js';
import { mergeSettings } from './settings-body.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/**
 * POST /interns: an intern in a workspace of the caller's organization,
 * queued, or provisioning when the body asks. Each create is kept under its
 * key (the Idempotency-Key header, or one derived from the body; see
 * create-key.ts for how long): a retry with the same key and body answers
 * 201 with the intern the first one made, provisioning it if that create
 * asked for it and did not get to start it (the SDK: a retry "resumes
 * unfinished work"); the same key with another body is 409.
 */
export function addCreateRoute(app: App, services: InternServices, internOf: InternLookup): void {
  const { db, clock } = services;
  app.post('/interns', { ...LIFECYCLE_WRITE, schema: { body: CreateInternBody } }, async (request, reply) => {
    const key = callerKey(request);
    const reach = keyReach(key);
    const body = request.body;
    const hash = bodyHash(body);
    const claim = createKeyOf(request.headers['idempotency-key'], hash);
    const ref = { api_key_hash: key.hash, source: claim.source, key: claim.key };
    const now = clock();
    const since = new Date(now.getTime() - claim.windowMs);

    const replay = async (row: InternCreateKeyRow): Promise<InternRecord> => {
      if (row.body_hash !== hash) throw Errors.internIdempotencyConflict();
      const intern = await internOf(reach, row.intern_id);
      if (!body.provision || intern.status !== 'queued') return toInternRecord(intern);
      await requireRuntime(services).provision(intern.id);
      return toInternRecord(await internOf(reach, intern.id));
    };

    const earlier = await findCreateKey(db, ref, since);
    if (earlier) return reply.code(201).send(await replay(earlier));

    checkInternModel(services, body.model);
    // Another workspace than the reach's is as absent as a missing one (an organization's reach names any).
    const named = workspaceInReach(reach, body.workspace_id) ?? key.workspace_id;
    const workspaceId = (await findWorkspace(db, key.organization_id, named))?.id;
    if (workspaceId === undefined) throw Errors.internBadRequest(`workspace_id ${named} is not a workspace of this organization`);
    if (body.provision) requireRuntime(services);
    const at = now.toISOString();
    const id = newInternId();
    await forgetCreateKeys(db, ref, since);
    try {
      await db.transaction().execute(async (trx) => {
        await insertIntern(trx, {
          id,
          organization_id: key.organization_id,
          workspace_id: workspaceId,
          name: body.name,
          description: body.description ?? null,
          instructions: body.instructions ?? null,
          model: body.model ?? null,
          status: 'queued',
          progress: null,
          last_failure_message: null,
          vault_id: body.vault_id ?? null,
          settings: JSON.stringify(mergeSettings(null, body)),
          created_by_user_id: key.creator_user_id,
          created_at: at,
          updated_at: at,
        });
        await insertCreateKey(trx, { ...ref, body_hash: hash, intern_id: id, created_at: at });
      });
    } catch (error) {
      // A create under the same key committed first (two tries at once): this one answers as that one did.
      const winner = await findCreateKey(db, ref, since);
      if (!winner) throw error;
      return reply.code(201).send(await replay(winner));
    }
    if (body.provision) await requireRuntime(services).provision(id);
    return reply.code(201).send(toInternRecord(await internOf(reach, id)));
  });
}
