import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { compileGuardrail } from '../../guardrails/compile-guardrail.js';
import { GUARDRAILS_TOPIC } from '../../guardrails/guardrail-cache.js';
import { applyRuleInput, type GuardrailRuleInput, type GuardrailRules } from '../../guardrails/guardrail-rules.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import type { Reach } from '../../store/reach.js';
import {
  deleteGuardrail,
  findGuardrail,
  type GuardrailFields,
  type GuardrailRow,
  insertGuardrail,
  listGuardrails,
  updateGuardrail,
} from '../../store/repositories/guardrails.js';
import { findDefaultWorkspace, findWorkspace } from '../../store/repositories/workspaces.js';
import type { LimitReset } from '../../store/schema.js';
import { managementReach, workspaceInReach } from '../../workspaces/management-reach.js';
import { rulesOf, toGuardrailRecord } from './guardrail-record.js';
import { CreateGuardrailBody, GuardrailParams, ListGuardrailsQuery, UpdateGuardrailBody } from './schemas.js';

const DEFAULT_PAGE_SIZE = 50;

/** Drops the organization's compiled guardrails from every instance's cache. */
export const announceGuardrailChange = (services: Pick<Services, 'changes'>, organizationId: string) =>
  services.changes.publish(GUARDRAILS_TOPIC, organizationId);

interface Details {
  name?: string;
  description?: string | null;
  limit_usd?: number | null;
  reset_interval?: LimitReset | null;
  include_byok_in_budgets?: boolean;
}

/** The stored fields after a create or update; the rules compile first, so a pattern RE2 cannot run is a 400 and never stored. */
function fieldsOf(current: GuardrailRow | undefined, workspaceId: string, body: Details & GuardrailRuleInput): GuardrailFields {
  const rules: GuardrailRules = applyRuleInput(current ? rulesOf(current) : undefined, body);
  const name = body.name ?? current?.name ?? '';
  compileGuardrail(current?.id ?? 'new', name, rules);
  return {
    workspace_id: workspaceId,
    name,
    description: body.description !== undefined ? body.description : (current?.description ?? null),
    rules: JSON.stringify(rules),
    limit_usd: body.limit_usd !== undefined ? body.limit_usd : (current?.limit_usd ?? null),
    reset_interval: body.reset_interval !== undefined ? body.reset_interval : (current?.reset_interval ?? null),
    include_byok_in_budgets:
      body.include_byok_in_budgets !== undefined ? Number(body.include_byok_in_budgets) : (current?.include_byok_in_budgets ?? 0),
  };
}

/**
 * The reference's guardrail operations (GET/POST /guardrails, GET/PATCH/DELETE
 * /guardrails/{id}), management key required. Guardrails belong to the
 * caller's organization: another organization's are as absent as missing ones.
 */
export function guardrailsRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { db, clock, auth } = services;

  /** The workspace a list or a new guardrail names, in the caller's reach; else the default one (a scoped key's own). */
  async function workspaceOf(reach: Reach, requested: string | undefined): Promise<string> {
    const { organizationId } = reach;
    const workspaceId = workspaceInReach(reach, requested);
    const workspace =
      workspaceId === undefined ? await findDefaultWorkspace(db, organizationId) : await findWorkspace(db, organizationId, workspaceId);
    if (!workspace)
      throw Errors.invalidRequest(
        workspaceId === undefined
          ? 'workspace_id is required: the organization has no default workspace'
          : `workspace_id ${workspaceId} is not a workspace of this organization`,
      );
    return workspace.id;
  }

  return async (app) => {
    app.get('/guardrails', { onRequest: auth.requireManagementKey, schema: { querystring: ListGuardrailsQuery } }, async (request) => {
      const reach = managementReach(callerKey(request));
      const { offset, limit, workspace_id } = request.query;
      const workspace = await workspaceOf(reach, workspace_id);
      const { rows, total } = await listGuardrails(db, reach.organizationId, workspace, {
        offset: offset ?? 0,
        limit: limit ?? DEFAULT_PAGE_SIZE,
      });
      return { data: rows.map(toGuardrailRecord), total_count: total };
    });

    app.post('/guardrails', { onRequest: auth.requireManagementKey, schema: { body: CreateGuardrailBody } }, async (request, reply) => {
      const reach = managementReach(callerKey(request));
      const fields = fieldsOf(undefined, await workspaceOf(reach, request.body.workspace_id), request.body);
      const row = await insertGuardrail(db, reach.organizationId, fields, clock().toISOString());
      return reply.code(201).send({ data: toGuardrailRecord(row) });
    });

    app.get('/guardrails/:id', { onRequest: auth.requireManagementKey, schema: { params: GuardrailParams } }, async (request) => {
      return { data: toGuardrailRecord(await guardrailOf(services, managementReach(callerKey(request)), request.params.id)) };
    });

    app.patch(
      '/guardrails/:id',
      { onRequest: auth.requireManagementKey, schema: { params: GuardrailParams, body: UpdateGuardrailBody } },
      async (request) => {
        const reach = managementReach(callerKey(request));
        const current = await guardrailOf(services, reach, request.params.id);
        const row = await updateGuardrail(db, current, fieldsOf(current, current.workspace_id, request.body), clock().toISOString());
        await announceGuardrailChange(services, reach.organizationId);
        return { data: toGuardrailRecord(row) };
      },
    );

    app.delete('/guardrails/:id', { onRequest: auth.requireManagementKey, schema: { params: GuardrailParams } }, async (request) => {
      const reach = managementReach(callerKey(request));
      const row = await guardrailOf(services, reach, request.params.id);
      await deleteGuardrail(db, row.id);
      await announceGuardrailChange(services, reach.organizationId);
      return { deleted: true as const };
    });
  };
}

/** A guardrail in reach, or the 404 the reference answers. */
export async function guardrailOf(services: Pick<Services, 'db'>, reach: Reach, id: string): Promise<GuardrailRow> {
  const row = await findGuardrail(services.db, reach, id);
  if (!row) throw Errors.notFound(`Guardrail ${id}`);
  return row;
}
