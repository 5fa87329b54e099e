import { Errors } from '../../http/errors.js';
import type { PresetCache } from '../../presets/preset-cache.js';
import { parsePresetReference } from '../../presets/preset-reference.js';
import type { ChatRequestBody } from '../chat/schemas.js';
import { mergePreset } from './merge-preset.js';

/** The body with the preset it names of the key's workspace applied; a body naming none is returned as is. */
export async function applyPreset(presets: PresetCache, workspaceId: string, body: ChatRequestBody): Promise<ChatRequestBody> {
  const reference = parsePresetReference(body as ChatRequestBody & { preset?: unknown });
  if (!reference) return body;
  const preset = await presets.get(workspaceId, reference.slug);
  if (!preset) throw Errors.notFound(`Preset ${reference.slug}`);
  return mergePreset(body, reference, preset);
}
