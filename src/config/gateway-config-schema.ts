import { type Static, Type } from 'typebox';
import { QUANTIZATIONS, SERVICE_TIERS, TASK_TYPES } from '../protocol/routing-vocabulary.js';
import { TRANSCRIPTION_FORMATS } from '../protocol/transcription.js';

const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9._-]*$', maxLength: 64 });
const Usd = Type.Number({ minimum: 0 });
const Fraction = Type.Number({ minimum: 0, maximum: 1 });
/** ISO 3166-1 alpha-2, as the reference writes headquarters and datacenters. */
const CountryCode = Type.String({ pattern: '^[A-Z]{2}$' });

/** A conditional price (reference PricingOverride): conditions, then the prices that replace the base ones. */
const PricingOverrideSchema = Type.Object(
  {
    min_prompt_tokens: Type.Optional(Type.Number({ minimum: 0 })),
    utc_start: Type.Optional(Type.Number({ minimum: 0, maximum: 2359 })),
    utc_end: Type.Optional(Type.Number({ minimum: 0, maximum: 2400 })),
    prompt: Type.Optional(Usd),
    completion: Type.Optional(Usd),
    audio: Type.Optional(Usd),
    input_audio_cache: Type.Optional(Usd),
    input_cache_read: Type.Optional(Usd),
    input_cache_write: Type.Optional(Usd),
    input_cache_write_1h: Type.Optional(Usd),
  },
  { additionalProperties: false },
);

/** USD per unit, keyed as the reference document's pricing object. */
export const PricingSchema = Type.Object(
  {
    prompt: Type.Optional(Usd),
    completion: Type.Optional(Usd),
    request: Type.Optional(Usd),
    image: Type.Optional(Usd),
    image_token: Type.Optional(Usd),
    image_output: Type.Optional(Usd),
    audio: Type.Optional(Usd),
    audio_output: Type.Optional(Usd),
    input_audio_cache: Type.Optional(Usd),
    web_search: Type.Optional(Usd),
    internal_reasoning: Type.Optional(Usd),
    input_cache_read: Type.Optional(Usd),
    input_cache_write: Type.Optional(Usd),
    input_cache_write_1h: Type.Optional(Usd),
    /** USD per second of generated video. */
    video_second: Type.Optional(Usd),
    /** USD per character of text spoken (speech models). */
    character: Type.Optional(Usd),
    /** USD per second of audio transcribed (transcription models). */
    audio_second: Type.Optional(Usd),
    /** USD per second of video of a size (1792x1024) or resolution (1080p) priced apart. */
    video_second_by_size: Type.Optional(Type.Record(Type.String({ pattern: '^(\\d+x\\d+|\\d+p|4k)$' }), Usd)),
    discount: Type.Optional(Fraction),
    overrides: Type.Optional(Type.Array(PricingOverrideSchema)),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** The kind the gateway serves in its own process (BM25 reranking): it has no URL to call. */
export const IN_PROCESS_KIND = 'local';

export const ProviderConfigSchema = Type.Object(
  {
    id: Slug,
    kind: Type.String({ minLength: 1 }),
    base_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
    api_key: Type.Optional(Type.String()),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 1 })),
    // What GET /providers shows; a built-in provider's id brings its own, which these replace.
    privacy_policy_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
    terms_of_service_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
    status_page_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
    headquarters: Type.Optional(CountryCode),
    datacenters: Type.Optional(Type.Array(CountryCode, { uniqueItems: true })),
    /** The provider retains no request data: its endpoints count as zero-data-retention unless one sets `zdr: false`. */
    zdr: Type.Optional(Type.Boolean()),
  },
  // Every other kind is called over HTTP, so it needs its base URL.
  { additionalProperties: false, if: { properties: { kind: { const: IN_PROCESS_KIND } } }, else: { required: ['base_url'] } },
);

export const EndpointConfigSchema = Type.Object(
  {
    provider: Slug,
    upstream_model: Type.String({ minLength: 1 }),
    pricing: PricingSchema,
    context_length: Type.Optional(Type.Integer({ minimum: 1 })),
    max_completion_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    supported_parameters: Type.Optional(Type.Array(Type.String())),
    // Facts that provider preferences filter on; unknown when absent (see routing/endpoint-filters.ts).
    quantization: Type.Optional(Type.Enum([...QUANTIZATIONS])),
    data_collection: Type.Optional(Type.Enum(['allow', 'deny'])),
    zdr: Type.Optional(Type.Boolean()),
    distillable: Type.Optional(Type.Boolean()),
    supported_service_tiers: Type.Optional(Type.Array(Type.Enum([...SERVICE_TIERS]), { uniqueItems: true })),
    /** Transcription models: the longest audio the upstream model takes, in seconds (OpenAI's gpt-4o transcribe models: 1500). */
    max_audio_seconds: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Transcription models: the response formats the upstream model answers (all when absent). */
    response_formats: Type.Optional(Type.Array(Type.Enum([...TRANSCRIPTION_FORMATS]), { minItems: 1, uniqueItems: true })),
  },
  { additionalProperties: false },
);

/** 0–1 per task type for the routing plugins; `general` is overall quality. */
const ModelScoresSchema = Type.Object(Object.fromEntries(TASK_TYPES.map((task) => [task, Type.Optional(Fraction)])), {
  additionalProperties: false,
  minProperties: 1,
});

export const ModelConfigSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._:-]*$' }),
    name: Type.Optional(Type.String({ minLength: 1 })),
    description: Type.Optional(Type.String()),
    /** What the model is called for: chat completions (the default), POST /rerank, POST /embeddings, POST /images, POST /audio/speech, POST /audio/transcriptions or POST /videos. */
    type: Type.Optional(Type.Enum(['chat', 'rerank', 'embeddings', 'image', 'speech', 'transcription', 'video', 'decisions'])),
    context_length: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Replace the built-in scores of a model the built-in table knows, task by task. */
    scores: Type.Optional(ModelScoresSchema),
    endpoints: Type.Array(EndpointConfigSchema, { minItems: 1 }),
  },
  { additionalProperties: false },
);

/** Outbound fetches on behalf of models (web-fetch, file URLs): what they may reach beyond the public internet. */
export const NetworkConfigSchema = Type.Object(
  {
    /** CIDR ranges opened on purpose (an intranet wiki); private, loopback and link-local addresses are refused otherwise. */
    allow_private_ranges: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  },
  { additionalProperties: false },
);

/** The external search API of the web plugin (the reference's `exa` engine). */
export const WebSearchConfigSchema = Type.Object(
  {
    exa: Type.Optional(
      Type.Object(
        {
          base_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
          api_key: Type.String({ minLength: 1 }),
          timeout_ms: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Who the moderation plugin asks: a provider of the catalog whose kind speaks a moderation API, and its model. */
export const ModerationConfigSchema = Type.Object(
  {
    provider: Slug,
    model: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

/** Per-key request limits: at most requests_per_key authenticated requests per window. */
export const RateLimitsConfigSchema = Type.Object(
  {
    requests_per_key: Type.Integer({ minimum: 1 }),
    window_seconds: Type.Integer({ minimum: 1, maximum: 86_400 }),
  },
  { additionalProperties: false },
);

export const GatewayConfigSchema = Type.Object(
  {
    providers: Type.Optional(Type.Array(ProviderConfigSchema)),
    models: Type.Optional(Type.Array(ModelConfigSchema)),
    network: Type.Optional(NetworkConfigSchema),
    web_search: Type.Optional(WebSearchConfigSchema),
    moderation: Type.Optional(ModerationConfigSchema),
    rate_limits: Type.Optional(RateLimitsConfigSchema),
  },
  { additionalProperties: false },
);

export type ProviderConfig = Static<typeof ProviderConfigSchema>;
export type EndpointConfig = Static<typeof EndpointConfigSchema>;
export type ModelConfig = Static<typeof ModelConfigSchema>;
export type GatewayConfig = Static<typeof GatewayConfigSchema>;
export type ModerationConfig = Static<typeof ModerationConfigSchema>;
