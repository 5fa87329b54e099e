import { isRecord } from '../../util/is-record.js';
import { parseOpenAIError } from '../openai/parse-openai-error.js';
import type { ProviderErrorInfo } from '../shared/upstream-status-error.js';

/**
 * Message of a Jina-style error body: FastAPI's `{"detail": "…"}` (Jina) or
 * its validation list `{"detail": [{"loc", "msg"}]}`; hosts that copy the
 * protocol but not its errors (Together, vLLM) answer OpenAI-style, read as such.
 */
export function parseJinaError(body: unknown): ProviderErrorInfo {
  if (!isRecord(body) || body.detail === undefined) return parseOpenAIError(body);
  if (typeof body.detail === 'string') return { message: body.detail };
  if (Array.isArray(body.detail)) {
    const messages = body.detail.flatMap((item) => (isRecord(item) && typeof item.msg === 'string' ? [describe(item.loc, item.msg)] : []));
    if (messages.length > 0) return { message: messages.join('; ') };
  }
  return { message: JSON.stringify(body.detail) };
}

/** `["body", "top_n"], "Input should be greater than 0"` → `body.top_n: Input should be greater than 0` */
const describe = (loc: unknown, msg: string) => (Array.isArray(loc) && loc.length > 0 ? `${loc.join('.')}: ${msg}` : msg);
