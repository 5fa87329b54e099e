import { ALIAS_GROUPS, PRESET_FIELDS, type PresetSettings } from '../../presets/preset-fields.js';
import { isPresetModel, type PresetReference } from '../../presets/preset-reference.js';
import type { ChatRequestBody } from '../chat/schemas.js';

const INSTRUCTION_ROLES = new Set(['system', 'developer']);

/** The preset's fields the request leaves unset; a request field (or its alias) always wins. */
function presetDefaults(config: Record<string, unknown>, request: Record<string, unknown>): Record<string, unknown> {
  const isSet = (field: string) => request[field] !== undefined;
  const overridden = new Set<string>(PRESET_FIELDS.filter(isSet));
  for (const group of ALIAS_GROUPS) if (group.some(isSet)) for (const field of group) overridden.add(field);
  return Object.fromEntries(
    PRESET_FIELDS.filter((field) => config[field] !== undefined && !overridden.has(field)).map((field) => [field, config[field]]),
  );
}

/**
 * The request a preset turns `body` into. The request's own fields win field
 * by field (objects such as `provider` are not merged: the request's replaces
 * the preset's); the preset's system prompt comes first when the request has
 * no system or developer message. The reference's own naming of the preset
 * (`@preset/…` in `model`, `preset`) does not reach the upstream.
 */
export function mergePreset(body: ChatRequestBody, reference: PresetReference, preset: PresetSettings): ChatRequestBody {
  const { model, preset: _preset, ...rest } = body as ChatRequestBody & { preset?: unknown };
  const ownModel = model !== undefined && isPresetModel(model) ? reference.model : model;
  const request: ChatRequestBody = ownModel !== undefined ? { ...rest, model: ownModel } : rest;
  const merged = { ...presetDefaults(preset.config, request), ...request } as ChatRequestBody;
  const hasInstructions = merged.messages.some((message) => INSTRUCTION_ROLES.has(message.role));
  if (preset.systemPrompt !== null && !hasInstructions) {
    merged.messages = [{ role: 'system', content: preset.systemPrompt }, ...merged.messages];
  }
  return merged;
}
