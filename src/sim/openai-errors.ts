/**
 * The errors the simulator answers with, in OpenAI's body shape
 * `{"error":{"message","type","param","code"}}` and with OpenAI's own wording
 * where it is known, so clients and the gateway see what the real API sends.
 */
export interface OpenAiError {
  status: number;
  body: { error: { message: string; type: string; param: string | null; code: string | null } };
}

export const openAiError = (
  status: number,
  message: string,
  { type = 'invalid_request_error', param = null, code = null }: { type?: string; param?: string | null; code?: string | null } = {},
): OpenAiError => ({ status, body: { error: { message, type, param, code } } });

const SERVER_ERROR_MESSAGE = 'The server had an error while processing your request. Sorry about that!';

/** What a `status` knob answers with, by status; other 4xx/5xx fall back by class. */
const SIMULATED_STATUS: Record<number, (model: string) => OpenAiError> = {
  401: () =>
    openAiError(401, 'Incorrect API key provided: sk-sim***. You can find your API key at https://platform.openai.com/account/api-keys.', {
      code: 'invalid_api_key',
    }),
  403: () =>
    openAiError(403, 'Country, region, or territory not supported', {
      type: 'request_forbidden',
      code: 'unsupported_country_region_territory',
    }),
  404: (model) => SimErrors.modelNotFound(model),
  // OpenAI's 429 type names the exhausted limit ("requests" or "tokens"); the code is what clients key on.
  429: (model) =>
    openAiError(
      429,
      `Rate limit reached for ${model} in organization org-sim on requests per min (RPM): Limit 60, Used 60, Requested 1. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
      { type: 'requests', code: 'rate_limit_exceeded' },
    ),
  502: () => openAiError(502, 'Bad gateway.', { type: 'server_error' }),
  503: () => openAiError(503, 'The engine is currently overloaded, please try again later.', { type: 'server_error' }),
};

export const SimErrors = {
  /** A key the simulated account revoked (one starting `sk-sim-revoked`): OpenAI's 401 for a wrong key. */
  revokedApiKey: () =>
    openAiError(401, 'Incorrect API key provided: sk-sim***. You can find your API key at https://platform.openai.com/account/api-keys.', {
      code: 'invalid_api_key',
    }),
  missingApiKey: () =>
    openAiError(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    ),
  unparseableJson: () =>
    openAiError(
      400,
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
    ),
  invalidKnob: (message: string) => openAiError(400, message, { param: 'model', code: 'invalid_sim_knob' }),
  missingModel: () => openAiError(400, 'you must provide a model parameter'),
  missingParameter: (param: string) =>
    openAiError(400, `Missing required parameter: '${param}'.`, { param, code: 'missing_required_parameter' }),
  invalidType: (param: string, expected: string, got: string) =>
    openAiError(400, `Invalid type for '${param}': expected ${expected}, but got ${got} instead.`, { param, code: 'invalid_type' }),
  emptyArray: (param: string) =>
    openAiError(400, `Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`, {
      param,
      code: 'empty_array',
    }),
  invalidValue: (param: string, value: string, supported: readonly string[]) =>
    openAiError(400, `Invalid value: '${value}'. Supported values are: ${supported.map((s) => `'${s}'`).join(', ')}.`, {
      param,
      code: 'invalid_value',
    }),
  unsupportedParameter: (param: string, instead: string) =>
    openAiError(400, `Unsupported parameter: '${param}' is not supported with this model. Use '${instead}' instead.`, {
      param,
      code: 'unsupported_parameter',
    }),
  unrecognizedArgument: (name: string) => openAiError(400, `Unrecognized request argument supplied: ${name}`),
  arrayTooLong: (param: string, max: number, got: number) =>
    openAiError(
      400,
      `Invalid '${param}': array too long. Expected an array with maximum length ${max}, but got an array with length ${got} instead.`,
      {
        param,
        code: 'array_above_max_length',
      },
    ),
  unknownParameter: (param: string) => openAiError(400, `Unknown parameter: '${param}'.`, { param, code: 'unknown_parameter' }),
  aboveMaximum: (param: string, max: number, got: unknown) =>
    openAiError(400, `Invalid '${param}': integer above maximum value. Expected a value <= ${max}, but got ${String(got)} instead.`, {
      param,
      code: 'integer_above_max_value',
    }),
  belowMinimum: (param: string, min: number, got: unknown) =>
    openAiError(400, `Invalid '${param}': integer below minimum value. Expected a value >= ${min}, but got ${String(got)} instead.`, {
      param,
      code: 'integer_below_min_value',
    }),
  streamOptionsWithoutStream: () =>
    openAiError(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.", { param: 'stream_options' }),
  modelNotFound: (model: string, detail?: string) =>
    openAiError(404, `The model \`${model}\` does not exist or you do not have access to it.${detail ? ` (sim: ${detail})` : ''}`, {
      code: 'model_not_found',
    }),
  previousResponseNotFound: (id: string) =>
    openAiError(400, `Previous response with id '${id}' not found.`, {
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    }),
  invalidUrl: (method: string, path: string) => openAiError(404, `Invalid URL (${method} ${path})`),
  serverError: () => openAiError(500, SERVER_ERROR_MESSAGE, { type: 'server_error' }),
  /** The body for a `status` knob. */
  simulatedStatus: (status: number, model: string): OpenAiError =>
    SIMULATED_STATUS[status]?.(model) ??
    (status >= 500
      ? openAiError(status, SERVER_ERROR_MESSAGE, { type: 'server_error' })
      : openAiError(status, `Simulated HTTP ${status} error.`)),
};
