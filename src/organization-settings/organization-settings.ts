import type { ChatRequest } from '../protocol/chat.js';
import type { OrganizationSettingsRow } from '../store/repositories/organization-settings.js';

/** One item of a chat request's `plugins`, already validated: its id, `enabled` and its own fields. */
export type PluginSettings = NonNullable<ChatRequest['plugins']>[number];

/** A chat request's `provider` object (reference ProviderPreferences), already validated. */
export type ProviderDocument = Record<string, unknown>;

/** An organization's defaults for its chat requests (none until first set). */
export interface OrganizationSettings {
  provider: ProviderDocument | null;
  plugins: readonly PluginSettings[] | null;
  /** Whether the chat flows store each generation's prompt and completion (GET /generation/content); off by default. */
  storeContent: boolean;
  /** Whether a failing BYOK credential falls back to the gateway's own credential for its provider; on by default. */
  byokFallback: boolean;
  /** When they last changed; null while never set. */
  updatedAt: string | null;
}

export const NO_SETTINGS: OrganizationSettings = {
  provider: null,
  plugins: null,
  storeContent: false,
  byokFallback: true,
  updatedAt: null,
};

export function toOrganizationSettings(row: OrganizationSettingsRow | undefined): OrganizationSettings {
  if (!row) return NO_SETTINGS;
  return {
    provider: row.provider === null ? null : (JSON.parse(row.provider) as ProviderDocument),
    plugins: row.plugins === null ? null : (JSON.parse(row.plugins) as PluginSettings[]),
    storeContent: row.store_content === 1,
    byokFallback: row.byok_fallback === 1,
    updatedAt: row.updated_at,
  };
}
