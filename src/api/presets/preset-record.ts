import type { PresetRow, PresetVersionRow } from '../../store/repositories/presets.js';

/** The reference's Preset; every preset here is active (there is no disabling yet). */
export function toPresetRecord(row: PresetRow) {
  return {
    id: row.id,
    creator_user_id: row.creator_user_id,
    workspace_id: row.workspace_id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    status: 'active' as const,
    designated_version_id: row.designated_version_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    status_updated_at: null,
  };
}

/** The reference's PresetDesignatedVersion; versions are immutable, so updated_at is created_at. */
export function toVersionRecord(row: PresetVersionRow) {
  return {
    id: row.id,
    preset_id: row.preset_id,
    creator_id: row.creator_id,
    version: row.version,
    system_prompt: row.system_prompt,
    config: JSON.parse(row.config) as Record<string, unknown>,
    created_at: row.created_at,
    updated_at: row.created_at,
  };
}

export function toPresetWithVersion(row: PresetRow, version: PresetVersionRow) {
  return { ...toPresetRecord(row), designated_version: toVersionRecord(version) };
}
