import { newRequestId } from '../response-identity.js';

/**
 * The errors the simulated Messages API answers with, in Anthropic's body
 * shape `{"type":"error","error":{"type","message"},"request_id"}` and with
 * Anthropic's own wording where it is known.
 */
export interface AnthropicError {
  status: number;
  body: { type: 'error'; error: { type: string; message: string }; request_id: string };
}

const anthropicError = (status: number, type: string, message: string): AnthropicError => ({
  status,
  body: { type: 'error', error: { type, message }, request_id: newRequestId() },
});

/** Anthropic's error type for each status it documents; other 4xx are invalid_request_error, other 5xx api_error. */
const SIMULATED_STATUS: Record<number, [type: string, message: string]> = {
  400: ['invalid_request_error', 'Simulated invalid request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'Your credit balance is too low to access the Anthropic API.'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'Not found'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: [
    'rate_limit_error',
    'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.',
  ],
  500: ['api_error', 'Internal server error'],
  529: ['overloaded_error', 'Overloaded'],
};

export const AnthropicErrors = {
  missingApiKey: () => anthropicError(401, 'authentication_error', 'x-api-key header is required'),
  missingVersion: () => anthropicError(400, 'invalid_request_error', 'anthropic-version: header is required'),
  unparseableJson: () => anthropicError(400, 'invalid_request_error', 'The request body is not valid JSON.'),
  invalidRequest: (message: string) => anthropicError(400, 'invalid_request_error', message),
  modelNotFound: (model: string, detail?: string) =>
    anthropicError(404, 'not_found_error', `model: ${model}${detail ? ` (sim: ${detail})` : ''}`),
  /** The body for a `status` knob. */
  simulatedStatus: (status: number): AnthropicError => {
    const [type, message] =
      SIMULATED_STATUS[status] ?? (status >= 500 ? SIMULATED_STATUS[500]! : ['invalid_request_error', `Simulated HTTP ${status} error.`]);
    return anthropicError(status, type, message);
  },
};

/** The event a stream fails with under high load; a non-streaming request would get a 529 (Anthropic's streaming docs). */
export const OVERLOADED_EVENT = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
