import type { Endpoint, Model, Provider } from '../../catalog/types.js';
import type { EndpointFailure } from '../../routing/endpoint-health.js';
import type { EndpointFigures, Figures } from '../../routing/endpoint-stats.js';
import { type Tally, UPTIME_WINDOWS, uptimePercent } from '../../routing/endpoint-uptime.js';
import { endpointKey } from '../../routing/plan-attempts.js';
import { toArchitectureRecord } from './model-record.js';
import { toPricingRecord } from './pricing-record.js';

const accepts = (e: Endpoint, parameter: string) => e.supportedParameters?.includes(parameter) ?? true;

/** What this instance knows of an endpoint's health (routing/endpoint-health.ts), keyed by endpointKey. */
export interface EndpointHealthView {
  isHealthy(endpoint: string): boolean;
  recentFigures(endpoint: string, windowMs: number): EndpointFigures | undefined;
  attemptsOver(endpoint: string, windowMs: number): Tally;
  lastFailure(endpoint: string): EndpointFailure | undefined;
}

const THIRTY_MINUTES = UPTIME_WINDOWS.uptime_last_30m;

/** The reference's uptime fields: percent of attempts answered over each window, null when there was none. */
const uptimeRecord = (key: string, health: EndpointHealthView | undefined) =>
  Object.fromEntries(
    Object.entries(UPTIME_WINDOWS).map(([field, windowMs]) => [field, health ? uptimePercent(health.attemptsOver(key, windowMs)) : null]),
  ) as Record<keyof typeof UPTIME_WINDOWS, number | null>;

const percentiles = (f: Figures | undefined) => (f ? { p50: f.p50, p75: f.p75, p90: f.p90, p99: f.p99 } : null);

/** The reference's PublicEndpoint: one provider serving one model, with what this instance measured of it. */
export function toEndpointRecord(model: Model, endpoint: Endpoint, provider: Provider, health?: EndpointHealthView) {
  const key = endpointKey(model.id, endpoint.provider);
  const figures = health?.recentFigures(key, THIRTY_MINUTES);
  const failure = health?.lastFailure(key);
  return {
    name: `${provider.name} | ${model.id}`,
    model_id: model.id,
    model_name: model.name,
    // The reference allows no null here; 0 says "unknown" (a local server that did not report it).
    context_length: endpoint.contextLength ?? model.contextLength ?? 0,
    pricing: toPricingRecord(endpoint.pricing),
    provider_name: provider.name,
    tag: provider.id,
    quantization: endpoint.quantization ?? null,
    max_completion_tokens: endpoint.maxCompletionTokens ?? null,
    max_prompt_tokens: null,
    supported_parameters: endpoint.supportedParameters ?? [],
    // -1: it failed lately, and routing tries it last until it has rested (routing/endpoint-health.ts).
    status: health && !health.isHealthy(key) ? -1 : 0,
    // A provider that prices cache reads but not cache writes caches without being asked.
    supports_implicit_caching: endpoint.pricing.input_cache_read !== undefined && endpoint.pricing.input_cache_write === undefined,
    supports_tool_choice: {
      auto: accepts(endpoint, 'tools'),
      none: accepts(endpoint, 'tool_choice'),
      required: accepts(endpoint, 'tool_choice'),
      function: accepts(endpoint, 'tool_choice'),
    },
    // This instance's own measurements (routing/endpoint-health.ts): uptime over its attempts of each window,
    // latency (to first token, ms) and throughput over its requests to the endpoint of the last 30 minutes (at most its last 100).
    ...uptimeRecord(key, health),
    latency_last_30m: percentiles(figures?.ttftMs),
    throughput_last_30m: percentiles(figures?.throughput),
    // Beyond the reference: the last failure this instance saw of the endpoint, with the upstream's status when it answered one.
    last_error: failure
      ? { at: new Date(failure.at).toISOString(), status: failure.status ?? null, message: failure.message.slice(0, 500) }
      : null,
  };
}

/** The catalog's provider of an endpoint; the catalog's build guarantees one. */
export function providerOf(providers: ReadonlyMap<string, Provider>, model: Model, endpoint: Endpoint): Provider {
  const provider = providers.get(endpoint.provider);
  if (!provider) throw new Error(`model "${model.id}" names provider "${endpoint.provider}", which is not in the catalog`);
  return provider;
}

/** The reference document's ListEndpointsResponse for one model. */
export function toEndpointsRecord(model: Model, providers: ReadonlyMap<string, Provider>, health?: EndpointHealthView) {
  return {
    id: model.id,
    name: model.name,
    created: model.created,
    description: model.description,
    architecture: toArchitectureRecord(model.architecture),
    endpoints: model.endpoints.map((endpoint) => toEndpointRecord(model, endpoint, providerOf(providers, model, endpoint), health)),
  };
}
