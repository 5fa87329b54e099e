import { Errors } from '../../http/errors.js';
import { MODEL_PATTERN_FIELDS, MODEL_PATTERNS_MAX_TOTAL_CHARS } from './auto-router-plugin-schemas.js';
import type { ChatRequestBody } from './schemas.js';

const METADATA_KEY_MAX_CHARS = 64;

/** Length in Unicode code points, as JSON Schema's maxLength counts. */
const charCount = (text: string) => [...text].length;

function checkReasoningEffort(body: ChatRequestBody): void {
  const shorthand = body.reasoning_effort;
  const nested = body.reasoning?.effort;
  if (shorthand != null && nested != null && shorthand !== nested) {
    throw Errors.invalidRequest(
      `reasoning_effort (${JSON.stringify(shorthand)}) and reasoning.effort (${JSON.stringify(nested)}) must not differ; set one of them`,
    );
  }
}

/**
 * Plugin rules JSON Schema cannot state, for a request's plugins and an
 * organization's defaults alike. A plugin is named by its id (spec 2.2: the
 * discriminator), so each id appears once: a second entry would leave which
 * `enabled` and which fields hold to the order the code reads them in.
 */
export function checkPlugins(plugins: ChatRequestBody['plugins']): void {
  const seen = new Set<string>();
  plugins?.forEach((plugin, index) => {
    if (seen.has(plugin.id)) throw Errors.invalidRequest(`plugins[${index}].id "${plugin.id}" is already set: name each plugin once`);
    seen.add(plugin.id);
    if (plugin.id !== 'auto-router' && plugin.id !== 'auto-beta-router') return;
    for (const field of MODEL_PATTERN_FIELDS) {
      const total = (plugin[field] ?? []).reduce((sum, pattern) => sum + charCount(pattern), 0);
      if (total > MODEL_PATTERNS_MAX_TOTAL_CHARS) {
        throw Errors.invalidRequest(`plugins[${index}].${field} must have at most ${MODEL_PATTERNS_MAX_TOTAL_CHARS} characters in total`);
      }
    }
  });
}

function checkMetadataKeys(body: ChatRequestBody): void {
  for (const key of Object.keys(body.metadata ?? {})) {
    if (charCount(key) > METADATA_KEY_MAX_CHARS) {
      throw Errors.invalidRequest(`metadata keys must be at most ${METADATA_KEY_MAX_CHARS} characters long`);
    }
  }
}

/**
 * The rules of spec 2.1 and 2.2 that JSON Schema cannot state. Runs on a body
 * that already passed ChatRequestBody; throws a 400 naming the field and rule.
 */
export function checkChatRequest(body: ChatRequestBody): void {
  checkReasoningEffort(body);
  checkPlugins(body.plugins);
  checkMetadataKeys(body);
}
