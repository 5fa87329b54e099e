import type { Catalog, Endpoint, Model } from '../../catalog/types.js';
import type { ImageCapability, ImagesAdapter } from '../../protocol/adapters.js';

type Adapters = Readonly<Record<string, ImagesAdapter>>;

/** The parameters an endpoint's protocol takes. */
const parametersOf = (endpoint: Endpoint, catalog: Catalog, adapters: Adapters): Readonly<Record<string, ImageCapability>> =>
  adapters[catalog.providers.get(endpoint.provider)?.kind ?? '']?.supportedParameters ?? {};

/** Whether an endpoint's protocol streams natively (`stream: true`). */
const streams = (endpoint: Endpoint, catalog: Catalog, adapters: Adapters): boolean =>
  adapters[catalog.providers.get(endpoint.provider)?.kind ?? '']?.stream !== undefined;

/** An image model as the reference's ImageModelListItem: the parameters any of its endpoints takes, and where its endpoints are. */
export function imageModelRecord(model: Model, catalog: Catalog, adapters: Adapters, path: string) {
  return {
    id: model.id,
    name: model.name,
    description: model.description,
    created: model.created,
    architecture: { input_modalities: model.architecture.input_modalities, output_modalities: model.architecture.output_modalities },
    supported_parameters: Object.assign({}, ...model.endpoints.map((e) => parametersOf(e, catalog, adapters))) as Record<
      string,
      ImageCapability
    >,
    supports_streaming: model.endpoints.some((e) => streams(e, catalog, adapters)),
    endpoints: `${path}/${model.id}/endpoints`,
  };
}

/** The reference's ImageModelEndpointsResponse: each endpoint's provider, parameters and price per image. */
export function imageModelEndpoints(model: Model, catalog: Catalog, adapters: Adapters) {
  return {
    id: model.id,
    endpoints: model.endpoints.map((endpoint) => ({
      provider_name: catalog.providers.get(endpoint.provider)?.name ?? endpoint.provider,
      provider_slug: endpoint.provider,
      provider_tag: endpoint.provider,
      supported_parameters: parametersOf(endpoint, catalog, adapters),
      supports_streaming: streams(endpoint, catalog, adapters),
      allowed_passthrough_parameters: [],
      pricing: [
        ...(endpoint.pricing.image !== undefined ? [{ billable: 'output_image', unit: 'image', cost_usd: endpoint.pricing.image }] : []),
        ...(endpoint.pricing.request ? [{ billable: 'request', unit: 'request', cost_usd: endpoint.pricing.request }] : []),
      ],
    })),
  };
}
