import type { Endpoint, Model, Provider } from '../../catalog/types.js';
import type { EndpointFigures, Figures } from '../../routing/endpoint-stats.js';
import { endpointKey } from '../../routing/plan-attempts.js';
import { toArchitectureRecord } from './model-record.js';
import { toPricingRecord } from './pricing-record.js';

const accepts = (e: Endpoint, parameter: string) => e.supportedParameters?.includes(parameter) ?? true;

/** What this instance knows of an endpoint's health (routing/endpoint-health.ts), keyed by endpointKey. */
export interface EndpointHealthView {
  isHealthy(endpoint: string): boolean;
  figures(endpoint: string): EndpointFigures | undefined;
}

const percentiles = (f: Figures | undefined) => (f ? { p50: f.p50, p75: f.p75, p90: f.p90, p99: f.p99 } : null);

function toEndpointRecord(model: Model, endpoint: Endpoint, provider: Provider, health?: EndpointHealthView) {
  const key = endpointKey(model.id, endpoint.provider);
  const figures = health?.figures(key);
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
    // No uptime is kept; latency (to first token) and throughput are this instance's over its last requests to the endpoint.
    uptime_last_30m: null,
    uptime_last_5m: null,
    uptime_last_1d: null,
    latency_last_30m: percentiles(figures?.ttftMs),
    throughput_last_30m: percentiles(figures?.throughput),
  };
}

/** The reference document's ListEndpointsResponse for one model. */
export function toEndpointsRecord(model: Model, providers: ReadonlyMap<string, Provider>, health?: EndpointHealthView) {
  return {
    id: model.id,
    name: model.name,
    created: model.created,
    description: model.description,
    architecture: toArchitectureRecord(model.architecture),
    endpoints: model.endpoints.map((endpoint) => {
      const provider = providers.get(endpoint.provider);
      if (!provider) throw new Error(`model "${model.id}" names provider "${endpoint.provider}", which is not in the catalog`);
      return toEndpointRecord(model, endpoint, provider, health);
    }),
  };
}
