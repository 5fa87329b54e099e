import type { FinishReason } from '../../protocol/chat.js';

/**
 * The canonical finish reason for an OpenAI-compatible one. Hosts add their
 * own values; those we know map to their meaning, and an unknown one maps to
 * "stop": the upstream ended the generation normally as far as the protocol
 * shows, and clients only understand the canonical values. The native value
 * is kept beside it (native_finish_reason) by the callers.
 */
export function mapOpenAIFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case null:
    case undefined:
      return null;
    case 'length':
    case 'model_length': // Mistral: the context window is full
      return 'length';
    case 'tool_calls':
    case 'function_call': // the deprecated functions API
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    case 'error': // Mistral
    case 'insufficient_system_resource': // DeepSeek: generation cut short on its side
      return 'error';
    default:
      return 'stop';
  }
}
