import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { DESTINATIONS_TOPIC } from '../../destinations/destination-cache.js';
import { mergeConfig, parseConfig } from '../../destinations/destination-config.js';
import { type ConfigBox, openConfig, toDestinationRecord } from '../../destinations/destination-record.js';
import { MAX_PER_TYPE, typeProblem } from '../../destinations/destination-types.js';
import { type FilterRules, filterRulesProblem } from '../../destinations/filter-rules.js';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { eventCounts, retryDeadLetters } from '../../store/repositories/destination-events.js';
import {
  createDestination,
  type DestinationChanges,
  type DestinationRow,
  findDestination,
  listDestinations,
  softDeleteDestination,
  updateDestination,
} from '../../store/repositories/observability-destinations.js';
import { findWorkspaceById } from '../../store/repositories/workspaces.js';
import { newUuid } from '../../util/ids.js';
import { managementReach, workspaceInReach } from '../../workspaces/management-reach.js';
import { CreateDestinationBody, DestinationParams, ListDestinationsQuery, UpdateDestinationBody } from './schemas.js';

type Settings = Static<typeof UpdateDestinationBody>;

/** The settings' rules beyond their types, by field: (0, 1] sampling, known filter fields and operators. */
function checkSettings(body: Settings): void {
  if (body.sampling_rate !== undefined && !(body.sampling_rate > 0 && body.sampling_rate <= 1))
    throw Errors.invalidRequest('sampling_rate must be greater than 0 and at most 1');
  const rulesProblem = body.filter_rules ? filterRulesProblem(body.filter_rules as FilterRules) : undefined;
  if (rulesProblem) throw Errors.invalidRequest(rulesProblem);
}

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** The columns a create or an update sets from the body's settings (undefined ones are left out). */
function settingColumns(body: Settings): DestinationChanges {
  const columns: DestinationChanges = {
    name: body.name,
    enabled: flag(body.enabled),
    sampling_rate: body.sampling_rate,
    privacy_mode: flag(body.privacy_mode),
    broadcast_generation_cost: flag(body.broadcast_generation_cost),
    broadcast_generation_identity: flag(body.broadcast_generation_identity),
    broadcast_generation_request_context: flag(body.broadcast_generation_request_context),
    api_key_hashes: body.api_key_hashes === undefined ? undefined : body.api_key_hashes && JSON.stringify(body.api_key_hashes),
    filter_rules: body.filter_rules === undefined ? undefined : body.filter_rules && JSON.stringify(body.filter_rules),
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined));
}

/**
 * Observability destinations (the reference's /observability/destinations):
 * where a workspace's generations are broadcast. Management keys only, each
 * in its reach (another workspace's destination is a 404). Config secrets
 * are sealed under the vault key and masked in every answer; a change is
 * announced so every instance's ledger routes by the new set.
 */
export function destinationsRoutes(services: Services & { box: ConfigBox }): FastifyPluginAsyncTypebox {
  const { db, clock, auth, changes, box } = services;
  const changed = () => changes.publish(DESTINATIONS_TOPIC, 'all');

  async function destinationOf(request: { params: { id: string } } & Parameters<typeof callerKey>[0]): Promise<DestinationRow> {
    const found = await findDestination(db, managementReach(callerKey(request)), request.params.id);
    if (!found) throw Errors.notFound(`Observability destination ${request.params.id}`);
    return found;
  }

  /** Records with their delivery state, the outbox counted in one query for them all. */
  async function withDelivery(rows: readonly DestinationRow[]) {
    const counts = await eventCounts(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => {
      const { pending, dead } = counts.get(row.id) ?? { pending: 0, dead: 0 };
      return {
        ...toDestinationRecord(box, row),
        delivery: {
          pending,
          dead_letters: dead,
          last_success_at: row.last_success_at,
          last_error: row.last_error,
          retry_at: row.retry_at,
        },
      };
    });
  }

  return async (app) => {
    app.get(
      '/observability/destinations',
      { onRequest: auth.requireManagementKey, schema: { querystring: ListDestinationsQuery } },
      async (request) => {
        const reach = managementReach(callerKey(request));
        const rows = await listDestinations(db, reach, workspaceInReach(reach, request.query.workspace_id));
        return { data: await withDelivery(rows), total_count: rows.length };
      },
    );

    app.post(
      '/observability/destinations',
      { onRequest: auth.requireManagementKey, schema: { body: CreateDestinationBody } },
      async (request, reply) => {
        const caller = callerKey(request);
        const body = request.body;
        const problem = typeProblem(body.type);
        if (problem) throw Errors.invalidRequest(problem);
        checkSettings(body);
        const parsed = parseConfig(body.type as never, body.config);
        if ('problem' in parsed) throw Errors.invalidRequest(parsed.problem);
        const workspaceId = workspaceInReach(managementReach(caller), body.workspace_id) ?? caller.workspace_id;
        const workspace = await findWorkspaceById(db, workspaceId);
        if (workspace?.organization_id !== caller.organization_id) throw Errors.notFound(`Workspace ${workspaceId}`);
        const now = clock().toISOString();
        const row = {
          id: newUuid(),
          organization_id: caller.organization_id,
          workspace_id: workspace.id,
          type: body.type,
          name: body.name,
          config_sealed: box.seal(JSON.stringify(parsed.config)),
          enabled: 1,
          sampling_rate: 1,
          privacy_mode: 0,
          api_key_hashes: null,
          filter_rules: null,
          broadcast_generation_cost: 0,
          broadcast_generation_identity: 0,
          broadcast_generation_request_context: 0,
          ...settingColumns(body),
          created_at: now,
          updated_at: now,
          deleted_at: null,
        };
        if (!(await createDestination(db, row, MAX_PER_TYPE))) throw Errors.destinationLimit(MAX_PER_TYPE, body.type);
        await changed();
        const created = await findDestination(db, managementReach(caller), row.id);
        return reply.code(201).send({ data: toDestinationRecord(box, created as DestinationRow) });
      },
    );

    app.get(
      '/observability/destinations/:id',
      { onRequest: auth.requireManagementKey, schema: { params: DestinationParams } },
      async (request) => ({ data: (await withDelivery([await destinationOf(request)]))[0] }),
    );

    app.patch(
      '/observability/destinations/:id',
      { onRequest: auth.requireManagementKey, schema: { params: DestinationParams, body: UpdateDestinationBody } },
      async (request) => {
        const current = await destinationOf(request);
        const body = request.body;
        checkSettings(body);
        const columns: DestinationChanges = { ...settingColumns(body), updated_at: clock().toISOString() };
        if (body.config !== undefined) {
          const type = current.type as never;
          const parsed = parseConfig(type, mergeConfig(type, openConfig(box, current), body.config));
          if ('problem' in parsed) throw Errors.invalidRequest(parsed.problem);
          columns.config_sealed = box.seal(JSON.stringify(parsed.config));
        }
        await updateDestination(db, current.id, columns);
        await changed();
        return { data: toDestinationRecord(box, await destinationOf(request)) };
      },
    );

    app.delete(
      '/observability/destinations/:id',
      { onRequest: auth.requireManagementKey, schema: { params: DestinationParams } },
      async (request) => {
        const reach = managementReach(callerKey(request));
        if (!(await softDeleteDestination(db, reach, request.params.id, clock().toISOString())))
          throw Errors.notFound(`Observability destination ${request.params.id}`);
        await changed();
        return { deleted: true as const };
      },
    );

    app.post(
      '/observability/destinations/:id/retry',
      { onRequest: auth.requireManagementKey, schema: { params: DestinationParams } },
      async (request) => {
        const destination = await destinationOf(request);
        const retried = await retryDeadLetters(db, destination.id, clock().toISOString());
        return { data: { retried } };
      },
    );
  };
}
