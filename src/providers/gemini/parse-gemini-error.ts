import { isRecord } from '../../util/is-record.js';
import type { ProviderErrorInfo } from '../shared/upstream-status-error.js';

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * Message, code and retry hint of a Google error body
 * `{"error": {code, message, status, details: [...]}}`: the code is the
 * google.rpc status name ("RESOURCE_EXHAUSTED", "INVALID_ARGUMENT"), and the
 * retry hint is the retryDelay of a google.rpc.RetryInfo detail, which Google
 * sends in the body rather than as Retry-After. Also reads in-stream errors.
 */
export function parseGeminiError(body: unknown): ProviderErrorInfo {
  if (!isRecord(body) || !isRecord(body.error)) return {};
  const { message, status, details } = body.error;
  const info: ProviderErrorInfo = {};
  if (typeof message === 'string') info.message = message;
  if (typeof status === 'string') info.code = status;
  const retryInfo = Array.isArray(details) ? details.find((detail) => isRecord(detail) && detail['@type'] === RETRY_INFO) : undefined;
  const retryAfterMs = isRecord(retryInfo) ? parseDurationMs(retryInfo.retryDelay) : undefined;
  if (retryAfterMs !== undefined) info.retryAfterMs = retryAfterMs;
  return info;
}

/** A google.protobuf.Duration in its JSON form: seconds with up to nine decimals and an "s", e.g. "34.4s". */
function parseDurationMs(value: unknown): number | undefined {
  const seconds = typeof value === 'string' ? /^(\d+(?:\.\d{1,9})?)s$/.exec(value)?.[1] : undefined;
  return seconds === undefined ? undefined : Math.round(Number(seconds) * 1000);
}
