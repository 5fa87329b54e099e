import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import type { Reach } from '../../store/reach.js';
import {
  assignGuardrail,
  existingTargets,
  type GuardrailAssignmentRow,
  keyNames,
  listAssignments,
  unassignGuardrail,
} from '../../store/repositories/guardrails.js';
import type { GuardrailScope } from '../../store/schema.js';
import { managementReach, requireOrganizationReach } from '../../workspaces/management-reach.js';
import { assignmentBase } from './guardrail-record.js';
import { announceGuardrailChange, guardrailOf } from './routes.js';
import { GuardrailParams, KeyHashesBody, ListAssignmentsQuery, MemberIdsBody, WorkspaceIdsBody } from './schemas.js';

const DEFAULT_PAGE_SIZE = 50;

/** How one kind of assignment reads its targets from a request and shows a row. */
interface ScopeRoutes {
  scope: GuardrailScope;
  /** The body listing the targets; none for the organization, the caller's own. */
  body?: { schema: TSchema; field: string; noun: string };
  /** A target holds one guardrail of this scope: assigning replaces the one it had. */
  exclusive: boolean;
  /** Assigning reaches beyond one workspace (a member's traffic everywhere, the organization's): not for a scoped key. */
  organizationWide: boolean;
  records(services: Services, organizationId: string, rows: GuardrailAssignmentRow[]): Promise<unknown[]>;
}

const each = (toRecord: (row: GuardrailAssignmentRow) => unknown) => async (_s: Services, _o: string, rows: GuardrailAssignmentRow[]) =>
  rows.map(toRecord);

/**
 * By path segment: the reference's key and member assignments, and this
 * gateway's workspace and organization assignments, which make a guardrail
 * govern all of a workspace's or the organization's traffic.
 */
const SCOPES: Record<string, ScopeRoutes> = {
  keys: {
    scope: 'api-key',
    body: { schema: KeyHashesBody, field: 'key_hashes', noun: 'an API key' },
    exclusive: true,
    organizationWide: false,
    async records(services, organizationId, rows) {
      const names = await keyNames(
        services.db,
        organizationId,
        rows.map((r) => r.target_id),
      );
      return rows.map((row) => ({
        ...assignmentBase(row),
        key_hash: row.target_id,
        key_name: names.get(row.target_id)?.name ?? '',
        key_label: names.get(row.target_id)?.label ?? '',
      }));
    },
  },
  members: {
    scope: 'member',
    body: { schema: MemberIdsBody, field: 'member_user_ids', noun: 'a member' },
    exclusive: false,
    organizationWide: true,
    records: each((row) => ({ ...assignmentBase(row), user_id: row.target_id, organization_id: row.organization_id })),
  },
  workspaces: {
    scope: 'workspace',
    body: { schema: WorkspaceIdsBody, field: 'workspace_ids', noun: 'a workspace' },
    exclusive: true,
    organizationWide: false,
    records: each((row) => ({ ...assignmentBase(row), workspace_id: row.target_id })),
  },
  organization: {
    scope: 'organization',
    exclusive: false,
    organizationWide: true,
    records: each((row) => ({ ...assignmentBase(row), organization_id: row.target_id })),
  },
};

export function guardrailAssignmentRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { db, clock, auth } = services;
  const page = (query: { offset?: number | null; limit?: number }) => ({
    offset: query.offset ?? 0,
    limit: query.limit ?? DEFAULT_PAGE_SIZE,
  });

  /** The request's targets, each once; one that is not in reach is a 400 naming it. */
  async function targetsOf(routes: ScopeRoutes, reach: Reach, body: unknown): Promise<string[]> {
    if (!routes.body) return [reach.organizationId];
    const { field, noun } = routes.body;
    const ids = [...new Set((body as Record<string, string[]>)[field])];
    const known = await existingTargets(db, reach, routes.scope, ids);
    const unknown = ids.findIndex((id) => !known.has(id));
    if (unknown >= 0) throw Errors.invalidRequest(`${field}[${unknown}] ${ids[unknown]} is not ${noun} of this organization`);
    return ids;
  }

  return async (app) => {
    for (const [segment, routes] of Object.entries(SCOPES)) {
      const bodySchema = routes.body ? { body: routes.body.schema } : {};

      app.get(
        `/guardrails/assignments/${segment}`,
        { onRequest: auth.requireManagementKey, schema: { querystring: ListAssignmentsQuery } },
        async (request) => {
          const reach = managementReach(callerKey(request));
          const { organizationId } = reach;
          const { rows, total } = await listAssignments(db, { reach, scope: routes.scope }, page(request.query));
          return { data: await routes.records(services, organizationId, rows), total_count: total };
        },
      );

      app.get(
        `/guardrails/:id/assignments/${segment}`,
        { onRequest: auth.requireManagementKey, schema: { params: GuardrailParams, querystring: ListAssignmentsQuery } },
        async (request) => {
          const reach = managementReach(callerKey(request));
          const { organizationId } = reach;
          const guardrail = await guardrailOf(services, reach, request.params.id);
          const { rows, total } = await listAssignments(db, { reach, scope: routes.scope, guardrailId: guardrail.id }, page(request.query));
          return { data: await routes.records(services, organizationId, rows), total_count: total };
        },
      );

      app.post(
        `/guardrails/:id/assignments/${segment}`,
        { onRequest: auth.requireManagementKey, schema: { params: GuardrailParams, ...bodySchema } },
        async (request) => {
          const caller = callerKey(request);
          const reach = managementReach(caller);
          const guardrail = await guardrailOf(services, reach, request.params.id);
          if (routes.organizationWide) requireOrganizationReach(reach, `assign guardrails to ${segment}`);
          const targets = await targetsOf(routes, reach, request.body);
          await assignGuardrail(
            db,
            { organizationId: caller.organization_id, guardrailId: guardrail.id, scope: routes.scope, assignedBy: caller.creator_user_id },
            targets,
            { exclusive: routes.exclusive, now: clock().toISOString() },
          );
          await announceGuardrailChange(services, caller.organization_id);
          return { assigned_count: targets.length };
        },
      );

      app.post(
        `/guardrails/:id/assignments/${segment}/remove`,
        { onRequest: auth.requireManagementKey, schema: { params: GuardrailParams, ...bodySchema } },
        async (request) => {
          const reach = managementReach(callerKey(request));
          const { organizationId } = reach;
          const guardrail = await guardrailOf(services, reach, request.params.id);
          if (routes.organizationWide) requireOrganizationReach(reach, `remove guardrails from ${segment}`);
          const targets = routes.body ? [...new Set((request.body as Record<string, string[]>)[routes.body.field])] : [organizationId];
          const removed = await unassignGuardrail(db, guardrail.id, routes.scope, targets);
          await announceGuardrailChange(services, organizationId);
          return { unassigned_count: removed };
        },
      );
    }
  };
}
