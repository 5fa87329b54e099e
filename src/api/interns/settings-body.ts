import { INTERN_SETTING_DEFAULTS, type InternSettings, parseInternSettings } from '../../interns/intern-settings.js';
import { SETTING_NAMES } from './schemas.js';

/** The settings a create or update body names, over the stored ones (or the defaults). */
export function mergeSettings(stored: string | null, body: Partial<Record<(typeof SETTING_NAMES)[number], unknown>>): InternSettings {
  const settings: InternSettings =
    stored === null ? { ...INTERN_SETTING_DEFAULTS, tools: [...INTERN_SETTING_DEFAULTS.tools] } : parseInternSettings(stored);
  const target = settings as unknown as Record<string, unknown>;
  for (const name of SETTING_NAMES) if (body[name] !== undefined) target[name] = body[name];
  return settings;
}

/** True when the body names any setting. */
export const namesSettings = (body: Record<string, unknown>): boolean => SETTING_NAMES.some((name) => body[name] !== undefined);
