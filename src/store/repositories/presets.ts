import type { Kysely, Selectable } from 'kysely';
import { newUuid } from '../../util/ids.js';
import { type Reach, reachClause } from '../reach.js';
import type { Database, PresetsTable, PresetVersionsTable } from '../schema.js';

export type PresetRow = Selectable<PresetsTable>;
export type PresetVersionRow = Selectable<PresetVersionsTable>;

/** What a version holds; the config is the JSON object of chat-request fields. */
export interface PresetSettings {
  config: Record<string, unknown>;
  systemPrompt: string | null;
  creatorId: string;
}

export interface NewPreset {
  organizationId: string;
  workspaceId: string;
  slug: string;
  name: string;
  description: string | null;
  creatorUserId: string | null;
}

export interface Page {
  offset: number;
  limit: number;
}

/** Where a slug names a preset: each workspace has its own slugs. */
export interface PresetPlace {
  organizationId: string;
  workspaceId: string;
}

export async function findPreset(db: Kysely<Database>, place: PresetPlace, slug: string): Promise<PresetRow | undefined> {
  return db
    .selectFrom('presets')
    .selectAll()
    .where('organization_id', '=', place.organizationId)
    .where('workspace_id', '=', place.workspaceId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** The settings of a preset's designated version, in one query: what a chat request naming the preset applies. */
export async function findDesignatedSettings(
  db: Kysely<Database>,
  workspaceId: string,
  slug: string,
): Promise<{ config: string; system_prompt: string | null } | undefined> {
  return db
    .selectFrom('presets')
    .innerJoin('preset_versions', 'preset_versions.id', 'presets.designated_version_id')
    .select(['preset_versions.config', 'preset_versions.system_prompt'])
    .where('presets.workspace_id', '=', workspaceId)
    .where('presets.slug', '=', slug)
    .executeTakeFirst();
}

/** Most recently updated first, as the reference lists them; of one workspace when the reach is one's. */
export async function listPresets(db: Kysely<Database>, reach: Reach, page: Page): Promise<{ rows: PresetRow[]; total: number }> {
  const rows = await db
    .selectFrom('presets')
    .selectAll()
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  const { total } = await db
    .selectFrom('presets')
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .where('organization_id', '=', reach.organizationId)
    .where(reachClause(reach))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(total) };
}

export async function findVersion(db: Kysely<Database>, presetId: string, version: number): Promise<PresetVersionRow | undefined> {
  return db.selectFrom('preset_versions').selectAll().where('preset_id', '=', presetId).where('version', '=', version).executeTakeFirst();
}

export async function findVersionById(db: Kysely<Database>, id: string): Promise<PresetVersionRow | undefined> {
  return db.selectFrom('preset_versions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Oldest first, as the reference lists them. */
export async function listVersions(
  db: Kysely<Database>,
  presetId: string,
  page: Page,
): Promise<{ rows: PresetVersionRow[]; total: number }> {
  const rows = await db
    .selectFrom('preset_versions')
    .selectAll()
    .where('preset_id', '=', presetId)
    .orderBy('version')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  const { total } = await db
    .selectFrom('preset_versions')
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .where('preset_id', '=', presetId)
    .executeTakeFirstOrThrow();
  return { rows, total: Number(total) };
}

async function insertVersion(tx: Kysely<Database>, presetId: string, settings: PresetSettings, now: string): Promise<PresetVersionRow> {
  const { latest } = await tx
    .selectFrom('preset_versions')
    .select((eb) => eb.fn.max('version').as('latest'))
    .where('preset_id', '=', presetId)
    .executeTakeFirstOrThrow();
  const row: PresetVersionRow = {
    id: newUuid(),
    preset_id: presetId,
    version: Number(latest ?? 0) + 1,
    creator_id: settings.creatorId,
    system_prompt: settings.systemPrompt,
    config: JSON.stringify(settings.config),
    created_at: now,
  };
  await tx.insertInto('preset_versions').values(row).execute();
  await tx.updateTable('presets').set({ designated_version_id: row.id, updated_at: now }).where('id', '=', presetId).execute();
  return row;
}

/**
 * Adds the next version of a preset and designates it. Two racing writers
 * compute the same number; the unique (preset_id, version) refuses the second.
 */
export async function addVersion(db: Kysely<Database>, presetId: string, settings: PresetSettings, now: string): Promise<PresetVersionRow> {
  return db.transaction().execute((tx) => insertVersion(tx, presetId, settings, now));
}

/** A new preset with its first version; undefined when the slug is taken in its workspace. */
export async function createPreset(
  db: Kysely<Database>,
  preset: NewPreset,
  settings: PresetSettings,
  now: string,
): Promise<PresetRow | undefined> {
  const id = newUuid();
  return db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto('presets')
      .values({
        id,
        organization_id: preset.organizationId,
        workspace_id: preset.workspaceId,
        slug: preset.slug,
        name: preset.name,
        description: preset.description,
        creator_user_id: preset.creatorUserId,
        designated_version_id: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['workspace_id', 'slug']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return undefined;
    await insertVersion(tx, id, settings, now);
    return tx.selectFrom('presets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  });
}

export async function updatePresetDetails(
  db: Kysely<Database>,
  presetId: string,
  details: { name?: string; description?: string | null },
  now: string,
): Promise<void> {
  await db
    .updateTable('presets')
    .set({ ...details, updated_at: now })
    .where('id', '=', presetId)
    .execute();
}

export async function deletePreset(db: Kysely<Database>, place: PresetPlace, slug: string): Promise<boolean> {
  const preset = await findPreset(db, place, slug);
  if (!preset) return false;
  // Explicit rather than relying on ON DELETE CASCADE being enabled on every engine.
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('preset_versions').where('preset_id', '=', preset.id).execute();
    await tx.deleteFrom('presets').where('id', '=', preset.id).execute();
  });
  return true;
}
