import type { FinishReason } from '../../protocol/chat.js';

/**
 * The canonical finish reason for a Gemini one. Gemini ends function calls
 * with STOP, so whether the turn called functions decides between "stop"
 * and "tool_calls". Every kind of block (safety, recitation, blocklist,
 * prohibited content, personal data, their image variants, unsupported
 * language) is "content_filter"; a function call Gemini failed to produce
 * is "error". Unknown and unspecified values are "stop", as for OpenAI-
 * compatible hosts. Callers keep the native value beside it.
 */
export function mapGeminiFinishReason(reason: string | undefined, calledFunctions: boolean): FinishReason {
  switch (reason) {
    case undefined:
      return null;
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
    case 'IMAGE_RECITATION':
    case 'LANGUAGE':
      return 'content_filter';
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
    case 'TOO_MANY_TOOL_CALLS':
    case 'MISSING_THOUGHT_SIGNATURE':
      return 'error';
    default:
      return calledFunctions ? 'tool_calls' : 'stop';
  }
}
