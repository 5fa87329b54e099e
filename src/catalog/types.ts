import type { ModelScores, ServiceTier } from '../protocol/routing-vocabulary.js';
import type { UpstreamTarget } from '../protocol/upstream.js';

/** A conditional price (long context, time window); absent keys keep the base price. */
export interface PricingOverride {
  min_prompt_tokens?: number;
  utc_start?: number;
  utc_end?: number;
  prompt?: number;
  completion?: number;
  audio?: number;
  input_audio_cache?: number;
  input_cache_read?: number;
  input_cache_write?: number;
  input_cache_write_1h?: number;
}

/**
 * USD per unit (token, image, request, search), keyed as the reference
 * document's pricing object so that config, catalog and /models share one
 * vocabulary. Prompt and completion are always present (0 when the endpoint
 * charges per request only); the build refuses an endpoint with no price.
 */
export interface Pricing {
  prompt: number;
  completion: number;
  request?: number;
  image?: number;
  image_token?: number;
  image_output?: number;
  audio?: number;
  audio_output?: number;
  input_audio_cache?: number;
  web_search?: number;
  internal_reasoning?: number;
  input_cache_read?: number;
  input_cache_write?: number;
  input_cache_write_1h?: number;
  /** USD per second of generated video (video models). */
  video_second?: number;
  /** USD per character of text spoken (speech models). */
  character?: number;
  /** USD per second of audio transcribed (transcription models). */
  audio_second?: number;
  /** USD per second of video of these sizes (WIDTHxHEIGHT) or resolutions (1080p), where it differs from video_second. */
  video_second_by_size?: Readonly<Record<string, number>>;
  /** Fraction taken off every price, 0 to 1. */
  discount?: number;
  overrides?: readonly PricingOverride[];
}

/** What GET /providers says of a provider beyond its name (the reference's provider fields); unknown when absent. */
export interface ProviderFacts {
  privacyPolicyUrl?: string;
  termsOfServiceUrl?: string;
  statusPageUrl?: string;
  /** ISO 3166-1 alpha-2 country codes. */
  headquarters?: string;
  datacenters?: readonly string[];
  /** The provider retains no request data: its endpoints are zero-data-retention unless one says otherwise. */
  zdr?: boolean;
}

export interface Provider {
  /** Slug that endpoints name, e.g. "openai". */
  id: string;
  /** Display name, e.g. "OpenAI". */
  name: string;
  /** Adapter kind, e.g. "openai". */
  kind: string;
  /** Including the version segment, without a trailing slash; empty for the in-process kind. */
  baseUrl: string;
  apiKey?: string;
  headers?: Readonly<Record<string, string>>;
  timeoutMs: number;
  facts?: ProviderFacts;
}

/** One provider serving one model. Optional numbers are unknown when absent. */
export interface Endpoint {
  provider: string;
  upstreamModel: string;
  pricing: Pricing;
  contextLength?: number;
  maxCompletionTokens?: number;
  /** Request parameters the endpoint accepts; undefined means all. */
  supportedParameters?: readonly string[];
  // Facts for provider preferences in routing; unknown when absent.
  quantization?: string;
  dataCollection?: 'allow' | 'deny';
  zdr?: boolean;
  distillable?: boolean;
  /** The tiers the endpoint can be asked for; the request's tier is sent only when listed here. */
  supportedServiceTiers?: readonly ServiceTier[];
  /** Transcription: the longest audio the upstream model takes, in seconds; bounded only by the file's size when absent. */
  maxAudioSeconds?: number;
  /** Transcription: the response formats the upstream model answers; every format when absent. */
  responseFormats?: readonly string[];
}

/** Modalities and tokenizer family, in the reference document's vocabulary. */
export interface Architecture {
  input_modalities: readonly string[];
  output_modalities: readonly string[];
  tokenizer: string;
}

export interface Model {
  /** `vendor/name`, e.g. "openai/gpt-4o-mini". */
  id: string;
  name: string;
  description: string;
  /** Unix seconds; 0 when unknown. */
  created: number;
  contextLength?: number;
  architecture: Architecture;
  /** Scores of the routing plugins (auto-router, pareto-router); absent when unscored. */
  scores?: ModelScores;
  /** In order of preference: the first is the top provider. */
  endpoints: readonly Endpoint[];
}

/** A model without its endpoints: what a provider's data file describes once. */
export type ModelInfo = Omit<Model, 'endpoints'>;

/** What a catalog is made of, before lookup structures are built. */
export interface CatalogContents {
  providers: readonly Provider[];
  models: readonly Model[];
}

export interface Catalog {
  readonly providers: ReadonlyMap<string, Provider>;
  getModel(id: string): Model | undefined;
  listModels(): readonly Model[];
  /** Where and how to call one endpoint of a model. */
  targetFor(model: Model, endpoint: Endpoint): UpstreamTarget;
}
