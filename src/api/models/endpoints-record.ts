import type { Endpoint, Model, Provider } from '../../catalog/types.js';
import { toArchitectureRecord } from './model-record.js';
import { toPricingRecord } from './pricing-record.js';

const accepts = (e: Endpoint, parameter: string) => e.supportedParameters?.includes(parameter) ?? true;

function toEndpointRecord(model: Model, endpoint: Endpoint, provider: Provider) {
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
    status: 0,
    // A provider that prices cache reads but not cache writes caches without being asked.
    supports_implicit_caching: endpoint.pricing.input_cache_read !== undefined && endpoint.pricing.input_cache_write === undefined,
    supports_tool_choice: {
      auto: accepts(endpoint, 'tools'),
      none: accepts(endpoint, 'tool_choice'),
      required: accepts(endpoint, 'tool_choice'),
      function: accepts(endpoint, 'tool_choice'),
    },
    // No traffic statistics are kept yet.
    uptime_last_30m: null,
    uptime_last_5m: null,
    uptime_last_1d: null,
    latency_last_30m: null,
    throughput_last_30m: null,
  };
}

/** The reference document's ListEndpointsResponse for one model. */
export function toEndpointsRecord(model: Model, providers: ReadonlyMap<string, Provider>) {
  return {
    id: model.id,
    name: model.name,
    created: model.created,
    description: model.description,
    architecture: toArchitectureRecord(model.architecture),
    endpoints: model.endpoints.map((endpoint) => {
      const provider = providers.get(endpoint.provider);
      if (!provider) throw new Error(`model "${model.id}" names provider "${endpoint.provider}", which is not in the catalog`);
      return toEndpointRecord(model, endpoint, provider);
    }),
  };
}
