import type { FinishReason } from '../protocol/chat.js';
import type { MessagesStopReason } from '../protocol/messages.js';

const NATIVE: ReadonlySet<string> = new Set<MessagesStopReason>([
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
]);

/**
 * Anthropic's stop_reason for a canonical finish reason (pure). An answer
 * that came from Anthropic keeps its own (native_finish_reason), which says
 * more (stop_sequence, pause_turn); the others map: stop is end_turn, length
 * max_tokens, tool_calls tool_use, content_filter refusal.
 */
export function mapToMessagesStopReason(finish: FinishReason, native?: string | null): MessagesStopReason {
  if (native != null && NATIVE.has(native)) return native as MessagesStopReason;
  switch (finish) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}
