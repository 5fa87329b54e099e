/**
 * The errors the simulated Gemini API answers with, in Google's body shape
 * `{"error":{"code","message","status","details"}}` (google.rpc.Status, the
 * HTTP status repeated as `code`, the canonical code name as `status`) and
 * with Google's own wording where it is known.
 */
export interface GoogleError {
  status: number;
  body: { error: { code: number; message: string; status: string; details?: Record<string, unknown>[] } };
}

const googleError = (code: number, status: string, message: string, details?: Record<string, unknown>[]): GoogleError => ({
  status: code,
  body: { error: { code, message, status, ...(details ? { details } : {}) } },
});

const INTERNAL_MESSAGE =
  'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting';

const modelNotFound = (model: string, detail?: string) =>
  googleError(
    404,
    'NOT_FOUND',
    `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.${detail ? ` (sim: ${detail})` : ''}`,
  );

/** What a `status` knob answers with, by HTTP status; other 4xx and 5xx fall back by class. */
const SIMULATED_STATUS: Record<number, (model: string) => GoogleError> = {
  400: () => googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.'),
  401: () =>
    googleError(
      401,
      'UNAUTHENTICATED',
      'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    ),
  403: () => googleError(403, 'PERMISSION_DENIED', 'The caller does not have permission'),
  404: (model) => modelNotFound(model),
  429: (model) =>
    googleError(
      429,
      'RESOURCE_EXHAUSTED',
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
      [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [
            {
              quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
              quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
              quotaDimensions: { location: 'global', model },
              quotaValue: '10',
            },
          ],
        },
      ],
    ),
  500: () => googleError(500, 'INTERNAL', INTERNAL_MESSAGE),
  503: () => googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
  504: () => googleError(504, 'DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.'),
};

export const GoogleErrors = {
  /** Google's answer to a request without any key (a wrong key would be a 400 API_KEY_INVALID; the simulator takes any). */
  missingApiKey: () =>
    googleError(
      403,
      'PERMISSION_DENIED',
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    ),
  invalidJson: (detail: string) => googleError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. ${detail}`),
  invalidArgument: (message: string) => googleError(400, 'INVALID_ARGUMENT', message),
  modelNotFound,
  internal: () => googleError(500, 'INTERNAL', INTERNAL_MESSAGE),
  /**
   * The body for a `status` knob. Google gives its retry hint in the body, as
   * a google.rpc.RetryInfo detail, so `retry_after` adds one (on any status).
   */
  simulatedStatus(status: number, model: string, retryAfterSeconds?: number): GoogleError {
    const error =
      SIMULATED_STATUS[status]?.(model) ??
      (status >= 500
        ? googleError(status, 'INTERNAL', INTERNAL_MESSAGE)
        : googleError(status, 'FAILED_PRECONDITION', `Simulated HTTP ${status} error.`));
    if (retryAfterSeconds === undefined) return error;
    const retryInfo = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfterSeconds}s` };
    return { status, body: { error: { ...error.body.error, details: [...(error.body.error.details ?? []), retryInfo] } } };
  },
};
