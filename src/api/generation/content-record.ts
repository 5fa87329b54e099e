import type { ChatMessage } from '../../protocol/chat.js';
import type { GenerationContentRow } from '../../store/repositories/generation-contents.js';
import type { GenerationRow } from '../../store/repositories/generations.js';
import { parseRouting } from './generation-record.js';

/** An attempt's status as a client would have had it: the upstream's, or the gateway's for a timeout (524) or a broken call (502). */
const attemptCode = (error: { status?: number; failure: string }) => error.status ?? (error.failure === 'timeout' ? 524 : 502);

/**
 * The failure of a generation in the reference's GenerationContentError
 * shape, from its ledger row: the status and message the client got, the
 * provider, and the attempts that failed before the last one. Raw upstream
 * bodies are not kept (null). Null for a generation that did not fail.
 */
function contentError(row: GenerationRow) {
  if (row.error_code === null) return null;
  const attempts = parseRouting(row.routing)?.attempts ?? [];
  const failed = attempts.filter((a) => a.status === 'failed' && a.error);
  const previous = attempts.at(-1)?.status === 'failed' ? failed.slice(0, -1) : failed;
  return {
    status: row.error_code,
    message: row.error_message,
    provider_name: row.provider_name,
    raw: null,
    previous_errors: previous.map((a) => ({
      code: attemptCode(a.error!),
      message: a.error!.message,
      provider_name: a.provider,
      raw: null,
    })),
  };
}

/** GET /generation/content's data (the reference's GenerationContentData), with `truncated` (this gateway's): a text was cut to the stored bound. */
export function toGenerationContent(row: GenerationRow, content: GenerationContentRow) {
  return {
    input: { messages: JSON.parse(content.input) as ChatMessage[] },
    output: { completion: content.completion, reasoning: content.reasoning },
    error: contentError(row),
    truncated: content.truncated === 1,
  };
}
