import { Type } from 'typebox';
import { Nullable, PageQuery } from '../../http/schema-helpers.js';
import { PRESET_FIELDS } from '../../presets/preset-fields.js';
import { ChatRequestBody } from '../chat/schemas.js';

// URL-safe, and free of '/' and '@' so `model: "@preset/<slug>"` parses unambiguously.
export const PresetSlug = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' });

/** The chat-request fields a preset sets, validated by the chat endpoint's own rules; anything else is refused by name. */
export const PresetConfig = Type.Pick(ChatRequestBody, [...PRESET_FIELDS], { additionalProperties: false });

const Name = Type.String({ minLength: 1, maxLength: 128 });
const Description = Nullable(Type.String({ maxLength: 2048 }));
const SystemPrompt = Nullable(Type.String());

/** A workspace of the key's management reach; the key's own when absent. Each workspace has its own slugs. */
const WorkspaceId = Type.String({ minLength: 1, maxLength: 100 });

export const CreatePresetBody = Type.Object({
  slug: PresetSlug,
  workspace_id: Type.Optional(WorkspaceId),
  name: Type.Optional(Name),
  description: Type.Optional(Description),
  system_prompt: Type.Optional(SystemPrompt),
  config: PresetConfig,
});

/** Details change in place; a new config or system prompt makes a new designated version. */
export const UpdatePresetBody = Type.Object({
  name: Type.Optional(Name),
  description: Type.Optional(Description),
  system_prompt: Type.Optional(SystemPrompt),
  config: Type.Optional(PresetConfig),
});

export const PresetParams = Type.Object({ slug: Type.String({ minLength: 1 }) });

/** POST /presets/{slug}/chat/completions creates the slug it names, so the slug rule applies. */
export const NewPresetParams = Type.Object({ slug: PresetSlug });

export const PresetVersionParams = Type.Object({
  slug: Type.String({ minLength: 1 }),
  version: Type.String({ pattern: '^[1-9][0-9]{0,8}$' }),
});

/** Which workspace's slug a route names (see WorkspaceId). */
export const PresetWorkspaceQuery = Type.Object({ workspace_id: Type.Optional(WorkspaceId) });

/** Paging of the reference's list operations; the presets list filters by workspace_id, the versions list finds its slug there. */
export const ListPresetsQuery = Type.Object({ ...PageQuery(100).properties, workspace_id: Type.Optional(WorkspaceId) });
