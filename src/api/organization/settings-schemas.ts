import { Type } from 'typebox';
import { Nullable } from '../../http/schema-helpers.js';
import { Plugin } from '../chat/plugin-schemas.js';
import { ProviderPreferences } from '../chat/provider-preferences-schema.js';

/**
 * PATCH /organization/settings: the organization's default provider
 * preferences and plugins, each validated as in a chat request (null clears
 * one), whether its prompts and completions are stored, and whether a
 * failing BYOK credential falls back to the gateway's own; an absent field
 * keeps its value.
 */
export const UpdateOrganizationSettingsBody = Type.Object(
  {
    provider: Type.Optional(ProviderPreferences),
    plugins: Type.Optional(Nullable(Type.Array(Plugin))),
    store_content: Type.Optional(Type.Boolean()),
    byok_fallback: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
