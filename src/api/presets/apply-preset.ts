import type { Kysely } from 'kysely';
import { Errors } from '../../http/errors.js';
import { mergePreset } from '../../presets/merge-preset.js';
import { parsePresetReference } from '../../presets/preset-reference.js';
import type { Database } from '../../store/schema.js';
import { findPreset, findVersionById } from '../../store/repositories/presets.js';
import type { ChatRequestBody } from '../chat/schemas.js';

/** The body with the organization's preset it names applied; a body naming none is returned as is. */
export async function applyPreset(db: Kysely<Database>, organizationId: string, body: ChatRequestBody): Promise<ChatRequestBody> {
  const reference = parsePresetReference(body as ChatRequestBody & { preset?: unknown });
  if (!reference) return body;
  const preset = await findPreset(db, organizationId, reference.slug);
  const version = preset?.designated_version_id ? await findVersionById(db, preset.designated_version_id) : undefined;
  if (!version) throw Errors.notFound(`Preset ${reference.slug}`);
  return mergePreset(body, reference, { config: JSON.parse(version.config) as Record<string, unknown>, systemPrompt: version.system_prompt });
}
