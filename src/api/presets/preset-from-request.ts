import { PRESET_FIELDS, type PresetSettings } from '../../presets/preset-fields.js';
import type { ChatRequestBody } from '../chat/schemas.js';

type Message = ChatRequestBody['messages'][number];

function textOf(message: Message): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

/**
 * What a chat-completions body saves as a preset (the reference's
 * POST /presets/{slug}/chat/completions): the preset fields it sets, and its
 * system messages joined as the system prompt. Everything else is ignored.
 */
export function presetFromRequest(body: ChatRequestBody): PresetSettings {
  const fields = body as Record<string, unknown>;
  const config = Object.fromEntries(PRESET_FIELDS.filter((field) => fields[field] != null).map((field) => [field, fields[field]]));
  const system = body.messages.filter((message) => message.role === 'system').map(textOf);
  return { config, systemPrompt: system.length > 0 ? system.join('\n\n') : null };
}
