import type { EndpointConfig, GatewayConfig, ModelConfig, ProviderConfig } from '../config/gateway-config-schema.js';
import { normalizeBaseUrl } from './base-url.js';
import { BUILTIN_MODELS, BUILTIN_PROVIDERS } from './builtin/index.js';
import { BUILTIN_SCORES } from './builtin/model-scores.js';
import { CatalogError } from './catalog-error.js';
import { DECISIONS, DEFAULT_TIMEOUT_MS, EMBEDDINGS, IMAGE, RERANK, SPEECH, TEXT_ONLY, TRANSCRIPTION, VIDEO } from './defaults.js';
import type { Architecture, CatalogContents, Endpoint, Model, Pricing, Provider, ProviderFacts } from './types.js';

/** The architecture each declared `type` other than chat stands for. */
const TYPE_ARCHITECTURES: Readonly<Record<string, Architecture>> = {
  rerank: RERANK,
  embeddings: EMBEDDINGS,
  image: IMAGE,
  speech: SPEECH,
  transcription: TRANSCRIPTION,
  video: VIDEO,
  decisions: DECISIONS,
};

/** Whether the config file describes the catalog; one that does replaces the built-in table entirely. */
export const declaresCatalog = (config: GatewayConfig | undefined): config is GatewayConfig =>
  (config?.providers?.length ?? 0) > 0 || (config?.models?.length ?? 0) > 0;

/** A built-in provider's facts under those the config file states. */
function factsOf(p: ProviderConfig): ProviderFacts {
  const stated: ProviderFacts = {
    ...(p.privacy_policy_url !== undefined ? { privacyPolicyUrl: p.privacy_policy_url } : {}),
    ...(p.terms_of_service_url !== undefined ? { termsOfServiceUrl: p.terms_of_service_url } : {}),
    ...(p.status_page_url !== undefined ? { statusPageUrl: p.status_page_url } : {}),
    ...(p.headquarters !== undefined ? { headquarters: p.headquarters } : {}),
    ...(p.datacenters !== undefined ? { datacenters: p.datacenters } : {}),
    ...(p.zdr !== undefined ? { zdr: p.zdr } : {}),
  };
  return { ...BUILTIN_PROVIDERS.find((b) => b.id === p.id)?.facts, ...stated };
}

const toProvider = (p: ProviderConfig): Provider => ({
  id: p.id,
  name: p.id,
  kind: p.kind,
  // Only the in-process kind has no URL; the config schema requires one of every other.
  baseUrl: p.base_url !== undefined ? normalizeBaseUrl(p.base_url) : '',
  ...(p.api_key !== undefined ? { apiKey: p.api_key } : {}),
  ...(p.headers !== undefined ? { headers: p.headers } : {}),
  timeoutMs: p.timeout_ms ?? DEFAULT_TIMEOUT_MS,
  facts: factsOf(p),
});

/** An endpoint that states no price would be served for $0 by accident; 0 must be written to mean free. */
function toPricing(model: ModelConfig, index: number, endpoint: EndpointConfig): Pricing {
  const { prompt, completion, request, video_second, image, character, audio_second } = endpoint.pricing;
  const perUnit = (model.type === 'image' && image !== undefined) || character !== undefined || audio_second !== undefined;
  if (prompt === undefined && completion === undefined && request === undefined && video_second === undefined && !perUnit) {
    throw new CatalogError(
      `model "${model.id}" endpoint ${index} (provider "${endpoint.provider}", upstream model "${endpoint.upstream_model}") ` +
        'has no prompt, completion or request price; write 0 explicitly if it is free',
    );
  }
  return { ...endpoint.pricing, prompt: prompt ?? 0, completion: completion ?? 0 };
}

function toModel(m: ModelConfig, zdrProviders: ReadonlySet<string>): Model {
  // The config format has no created date or modalities: a model the built-in table knows keeps them, and its scores.
  const known = BUILTIN_MODELS.get(m.id);
  const endpoints = m.endpoints.map((e, i): Endpoint => {
    const contextLength = e.context_length ?? m.context_length;
    return {
      provider: e.provider,
      upstreamModel: e.upstream_model,
      pricing: toPricing(m, i, e),
      ...(contextLength !== undefined ? { contextLength } : {}),
      ...(e.max_completion_tokens !== undefined ? { maxCompletionTokens: e.max_completion_tokens } : {}),
      ...(e.supported_parameters !== undefined ? { supportedParameters: e.supported_parameters } : {}),
      ...(e.quantization !== undefined ? { quantization: e.quantization } : {}),
      ...(e.data_collection !== undefined ? { dataCollection: e.data_collection } : {}),
      // A provider marked zero-data-retention marks its endpoints, so routing's zdr filters and /endpoints/zdr agree.
      ...(e.zdr !== undefined ? { zdr: e.zdr } : zdrProviders.has(e.provider) ? { zdr: true } : {}),
      ...(e.distillable !== undefined ? { distillable: e.distillable } : {}),
      ...(e.supported_service_tiers !== undefined ? { supportedServiceTiers: e.supported_service_tiers } : {}),
      ...(e.max_audio_seconds !== undefined ? { maxAudioSeconds: e.max_audio_seconds } : {}),
      ...(e.response_formats !== undefined ? { responseFormats: e.response_formats } : {}),
    };
  });
  const scores = { ...BUILTIN_SCORES.get(m.id), ...m.scores };
  const endpointContexts = endpoints.flatMap((e) => (e.contextLength !== undefined ? [e.contextLength] : []));
  const contextLength = m.context_length ?? (endpointContexts.length ? Math.max(...endpointContexts) : known?.contextLength);
  return {
    id: m.id,
    name: m.name ?? known?.name ?? m.id,
    description: m.description ?? known?.description ?? '',
    created: known?.created ?? 0,
    ...(contextLength !== undefined ? { contextLength } : {}),
    architecture: (m.type !== undefined ? TYPE_ARCHITECTURES[m.type] : undefined) ?? known?.architecture ?? TEXT_ONLY,
    ...(Object.keys(scores).length > 0 ? { scores } : {}),
    endpoints,
  };
}

/** The providers and models a validated config file declares, and nothing else. */
export function catalogFromConfig(config: GatewayConfig): CatalogContents {
  const providers = (config.providers ?? []).map(toProvider);
  const zdrProviders = new Set(providers.filter((p) => p.facts?.zdr === true).map((p) => p.id));
  return { providers, models: (config.models ?? []).map((m) => toModel(m, zdrProviders)) };
}
