import type { GatewayError } from '../protocol/gateway-error.js';
import type { MessagesErrorBody, MessagesErrorType } from '../protocol/messages.js';

const BY_STATUS: Readonly<Record<number, MessagesErrorType>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  408: 'timeout_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  502: 'api_error',
  503: 'overloaded_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** Anthropic's error type for a status, as its documentation pairs them; other 4xx are invalid requests, other 5xx API errors. */
export function messagesErrorType(status: number): MessagesErrorType {
  return BY_STATUS[status] ?? (status < 500 ? 'invalid_request_error' : 'api_error');
}

/**
 * The gateway's error in the shape Anthropic's clients parse (pure):
 * `{"type":"error","error":{"type","message"},"request_id"}`, the status
 * unchanged. The gateway's metadata (which attempts failed, which field) is
 * kept beside the message, where those clients ignore it.
 */
export function convertToMessagesError(
  error: GatewayError,
  requestId: string | null,
): MessagesErrorBody & { error: { metadata?: Record<string, unknown> } } {
  return {
    type: 'error',
    error: { type: messagesErrorType(error.statusCode), message: error.message, ...(error.metadata ? { metadata: error.metadata } : {}) },
    request_id: requestId,
  };
}
