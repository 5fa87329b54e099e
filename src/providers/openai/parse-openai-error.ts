import { isRecord } from '../../util/is-record.js';
import type { ProviderErrorInfo } from '../shared/upstream-status-error.js';

/**
 * Message and code of an OpenAI-compatible error body: OpenAI's
 * `{"error": {message, type, code}}` (code preferred, it is the more
 * specific: "insufficient_quota", "unsupported_parameter"), the flat
 * `{"object": "error", message, type, code}` of vLLM and Mistral, and the
 * `{"error": "text"}` of Ollama. Also reads in-stream `data: {"error": …}` events.
 */
export function parseOpenAIError(body: unknown): ProviderErrorInfo {
  if (!isRecord(body)) return {};
  if (typeof body.error === 'string') return { message: body.error };
  const error = isRecord(body.error) ? body.error : body;
  const info: ProviderErrorInfo = {};
  if (error.message !== undefined && error.message !== null) {
    // Mistral's validation errors carry an object here.
    info.message = typeof error.message === 'string' ? error.message : JSON.stringify(error.message);
  }
  const code = typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : undefined;
  if (code !== undefined) info.code = code;
  return info;
}
