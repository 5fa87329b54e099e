import type { FinishReason } from '../../protocol/chat.js';

/**
 * The canonical finish reason for Anthropic's stop_reason. A pause_turn (a
 * server tool's long turn paused, to be continued by sending it back) ends
 * this answer like end_turn; a refusal is the content filter; running out of
 * context is a length stop like max_tokens. An unknown reason maps to "stop"
 * (clients understand only the canonical values); callers keep the native
 * one beside it.
 */
export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case null:
    case undefined:
      return null;
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default: // end_turn, stop_sequence, pause_turn
      return 'stop';
  }
}
