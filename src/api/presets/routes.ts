import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerKey } from '../../http/authenticate.js';
import { Errors } from '../../http/errors.js';
import { PRESETS_TOPIC, presetCacheId } from '../../presets/preset-cache.js';
import { isPresetModel } from '../../presets/preset-reference.js';
import type { Services } from '../../services.js';
import type { ApiKeyRow } from '../../store/repositories/api-keys.js';
import {
  addVersion,
  createPreset,
  deletePreset,
  findPreset,
  findVersion,
  findVersionById,
  listPresets,
  listVersions,
  type PresetPlace,
  type PresetRow,
  type PresetSettings,
  updatePresetDetails,
} from '../../store/repositories/presets.js';
import { keyReach, workspaceInReach } from '../../workspaces/management-reach.js';
import { requestWorkspace } from '../../workspaces/request-workspace.js';
import { ChatRequestBody } from '../chat/schemas.js';
import { convertMessagesRequest } from '../messages/convert-messages-request.js';
import { MessagesRequestBody } from '../messages/schemas.js';
import { chatBodyOf } from '../responses/chat-body.js';
import { ResponsesRequestBody } from '../responses/schemas.js';
import { presetFromRequest } from './preset-from-request.js';
import { toPresetRecord, toPresetWithVersion, toVersionRecord } from './preset-record.js';
import {
  CreatePresetBody,
  ListPresetsQuery,
  NewPresetParams,
  PresetParams,
  PresetVersionParams,
  PresetWorkspaceQuery,
  UpdatePresetBody,
} from './schemas.js';

const DEFAULT_PAGE_SIZE = 50;

const page = (query: { offset?: number | null; limit?: number }) => ({
  offset: query.offset ?? 0,
  limit: query.limit ?? DEFAULT_PAGE_SIZE,
});

/** A preset must name a model, never another preset: presets do not chain. */
function assertNoPresetModel(field: string, model: string | undefined): void {
  if (model !== undefined && isPresetModel(model)) throw Errors.invalidRequest(`${field} must name a model, not a preset`);
}

/** Who made a version: the key's user, else the key's label (keys made by the bootstrap have no user). */
const creatorOf = (key: ApiKeyRow) => key.creator_user_id ?? key.label;

/**
 * Presets of the reference (GET /presets, /presets/{slug}, its versions, and
 * POST /presets/{slug}/chat/completions, /responses and /messages), plus POST /presets, PATCH and DELETE
 * /presets/{slug}, which the reference leaves to its web UI. A preset belongs
 * to one workspace, which has its own slugs: a slug names a preset of the
 * key's workspace, or of the one `workspace_id` names when a management key
 * reaches it (another workspace's is as absent as a missing one, and a slug
 * taken there is free here). Any key may read and use its workspace's
 * presets; only management keys change one, as the reference's 403 on its
 * create operation says.
 */
export function presetsRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { db, clock, auth, changes } = services;
  // Requests naming a preset read it from every instance's PresetCache: a change drops it there.
  const changed = (place: PresetPlace, slug: string) => changes.publish(PRESETS_TOPIC, presetCacheId(place.workspaceId, slug));

  /** Where the request's slug lives: the key's workspace, or the one it names in its reach (404 otherwise). */
  const placeOf = async (key: ApiKeyRow, requested: string | undefined): Promise<PresetPlace> => ({
    organizationId: key.organization_id,
    workspaceId: await requestWorkspace(db, key, requested),
  });

  async function presetOf(place: PresetPlace, slug: string): Promise<PresetRow> {
    const preset = await findPreset(db, place, slug);
    if (!preset) throw Errors.notFound(`Preset ${slug}`);
    return preset;
  }

  async function withDesignatedVersion(preset: PresetRow) {
    const version = preset.designated_version_id ? await findVersionById(db, preset.designated_version_id) : undefined;
    if (!version) throw Errors.internal();
    return toPresetWithVersion(preset, version);
  }

  return async (app) => {
    app.get('/presets', { onRequest: auth.requireKey, schema: { querystring: ListPresetsQuery } }, async (request) => {
      const reach = keyReach(callerKey(request));
      const workspaceId = workspaceInReach(reach, request.query.workspace_id) ?? null;
      const { rows, total } = await listPresets(db, { ...reach, workspaceId }, page(request.query));
      return { data: rows.map(toPresetRecord), total_count: total };
    });

    app.post('/presets', { onRequest: auth.requireManagementKey, schema: { body: CreatePresetBody } }, async (request, reply) => {
      const caller = callerKey(request);
      const body = request.body;
      assertNoPresetModel('config.model', body.config.model);
      const now = clock().toISOString();
      const place = await placeOf(caller, body.workspace_id);
      const preset = await createPreset(
        db,
        {
          ...place,
          slug: body.slug,
          name: body.name ?? body.slug,
          description: body.description ?? null,
          creatorUserId: caller.creator_user_id,
        },
        { config: body.config, systemPrompt: body.system_prompt ?? null, creatorId: creatorOf(caller) },
        now,
      );
      if (!preset) throw Errors.presetExists(body.slug);
      return reply.code(201).send({ data: await withDesignatedVersion(preset) });
    });

    app.get(
      '/presets/:slug',
      { onRequest: auth.requireKey, schema: { params: PresetParams, querystring: PresetWorkspaceQuery } },
      async (request) => {
        const preset = await presetOf(await placeOf(callerKey(request), request.query.workspace_id), request.params.slug);
        return { data: await withDesignatedVersion(preset) };
      },
    );

    app.patch(
      '/presets/:slug',
      { onRequest: auth.requireManagementKey, schema: { params: PresetParams, querystring: PresetWorkspaceQuery, body: UpdatePresetBody } },
      async (request) => {
        const caller = callerKey(request);
        const body = request.body;
        assertNoPresetModel('config.model', body.config?.model);
        const place = await placeOf(caller, request.query.workspace_id);
        const preset = await presetOf(place, request.params.slug);
        const now = clock().toISOString();
        const { name, description } = body;
        await updatePresetDetails(
          db,
          preset.id,
          { ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}) },
          now,
        );
        if (body.config !== undefined || body.system_prompt !== undefined) {
          const current = await findVersionById(db, preset.designated_version_id ?? '');
          const settings: PresetSettings = {
            config: body.config ?? (current ? (JSON.parse(current.config) as Record<string, unknown>) : {}),
            systemPrompt: body.system_prompt !== undefined ? body.system_prompt : (current?.system_prompt ?? null),
            creatorId: creatorOf(caller),
          };
          await addVersion(db, preset.id, settings, now);
          await changed(place, preset.slug);
        }
        return { data: await withDesignatedVersion(await presetOf(place, preset.slug)) };
      },
    );

    app.delete(
      '/presets/:slug',
      { onRequest: auth.requireManagementKey, schema: { params: PresetParams, querystring: PresetWorkspaceQuery } },
      async (request) => {
        const place = await placeOf(callerKey(request), request.query.workspace_id);
        if (!(await deletePreset(db, place, request.params.slug))) throw Errors.notFound(`Preset ${request.params.slug}`);
        await changed(place, request.params.slug);
        return { deleted: true as const };
      },
    );

    /** A preset (or its next version) from an inference body: the reference's POST /presets/{slug}/chat/completions and /responses. */
    async function saveFromRequest(caller: ApiKeyRow, slug: string, requested: string | undefined, body: ChatRequestBody) {
      assertNoPresetModel('model', body.model);
      const settings = { ...presetFromRequest(body), creatorId: creatorOf(caller) };
      const now = clock().toISOString();
      const place = await placeOf(caller, requested);
      const existing = await findPreset(db, place, slug);
      if (existing) {
        await addVersion(db, existing.id, settings, now);
        await changed(place, slug);
        return { data: await withDesignatedVersion(await presetOf(place, slug)) };
      }
      const preset = await createPreset(
        db,
        {
          ...place,
          slug,
          name: slug,
          description: null,
          creatorUserId: caller.creator_user_id,
        },
        settings,
        now,
      );
      // Another request created it between the read and the insert.
      if (!preset) throw Errors.presetExists(slug);
      return { data: await withDesignatedVersion(preset) };
    }

    app.post(
      '/presets/:slug/chat/completions',
      {
        onRequest: auth.requireManagementKey,
        schema: { params: NewPresetParams, querystring: PresetWorkspaceQuery, body: ChatRequestBody },
      },
      async (request) => saveFromRequest(callerKey(request), request.params.slug, request.query.workspace_id, request.body),
    );

    // A Responses body saves what its chat request would hold: `instructions` is the system prompt.
    app.post(
      '/presets/:slug/responses',
      {
        onRequest: auth.requireManagementKey,
        schema: { params: NewPresetParams, querystring: PresetWorkspaceQuery, body: ResponsesRequestBody },
      },
      async (request) => saveFromRequest(callerKey(request), request.params.slug, request.query.workspace_id, chatBodyOf(request.body)),
    );

    // A Messages body reads as the chat body it is served as: its system prompt and its fields under their chat names.
    app.post(
      '/presets/:slug/messages',
      {
        onRequest: auth.requireManagementKey,
        schema: { params: NewPresetParams, querystring: PresetWorkspaceQuery, body: MessagesRequestBody },
      },
      async (request) =>
        saveFromRequest(callerKey(request), request.params.slug, request.query.workspace_id, convertMessagesRequest(request.body)),
    );

    app.get(
      '/presets/:slug/versions',
      { onRequest: auth.requireKey, schema: { params: PresetParams, querystring: ListPresetsQuery } },
      async (request) => {
        const preset = await presetOf(await placeOf(callerKey(request), request.query.workspace_id), request.params.slug);
        const { rows, total } = await listVersions(db, preset.id, page(request.query));
        return { data: rows.map(toVersionRecord), total_count: total };
      },
    );

    app.get(
      '/presets/:slug/versions/:version',
      { onRequest: auth.requireKey, schema: { params: PresetVersionParams, querystring: PresetWorkspaceQuery } },
      async (request) => {
        const { slug, version } = request.params;
        const preset = await presetOf(await placeOf(callerKey(request), request.query.workspace_id), slug);
        const row = await findVersion(db, preset.id, Number(version));
        if (!row) throw Errors.notFound(`Version ${version} of preset ${slug}`);
        return { data: toVersionRecord(row) };
      },
    );
  };
}
