import { isRecord } from '../../util/is-record.js';
import type { ProviderErrorInfo } from '../shared/upstream-status-error.js';

/**
 * Message and type of Anthropic's error body
 * `{"type": "error", "error": {"type", "message"}, "request_id"}`, which is
 * also the data of an in-stream `error` event. The type is the code
 * ("overloaded_error", "rate_limit_error", "invalid_request_error", …).
 */
export function parseAnthropicError(body: unknown): ProviderErrorInfo {
  if (!isRecord(body) || !isRecord(body.error)) return {};
  const { message, type } = body.error;
  const info: ProviderErrorInfo = {};
  if (typeof message === 'string') info.message = message;
  if (typeof type === 'string') info.code = type;
  return info;
}
