import type { FastifyRequest } from 'fastify';
import type { Endpoint, Model } from '../../catalog/types.js';
import type { ApplicableGuardrail } from '../../guardrails/compiled-guardrail.js';
import { guardrailExclusion } from '../../guardrails/endpoint-rules.js';
import type { OrganizationGuardrails } from '../../guardrails/organization-guardrails.js';
import { callerKey } from '../../http/authenticate.js';
import type { OrganizationSettings } from '../../organization-settings/organization-settings.js';
import { exclusionOf } from '../../routing/endpoint-filters.js';
import { type ProviderPreferences, readProviderPreferences } from '../../routing/provider-preferences.js';

/** Whether a key may be routed to one endpoint of a model. */
export type EndpointAllowed = (modelId: string, endpoint: Endpoint) => boolean;

/**
 * The endpoints a request of the key can reach when it sets no preference of
 * its own: those its organization's default provider preferences keep
 * (only, ignore, data collection, zdr, quantizations, price ceilings) and
 * every guardrail that governs the key allows (allowed/ignored models and
 * providers, zero data retention, training). A workspace's defaults sort
 * endpoints but drop none.
 */
export const keyEndpointFilter =
  (preferences: ProviderPreferences, guardrails: readonly ApplicableGuardrail[]): EndpointAllowed =>
  (modelId, endpoint) =>
    exclusionOf(endpoint, preferences, { parameters: [] }) === undefined &&
    guardrails.every(({ guardrail }) => guardrailExclusion(guardrail.rules, modelId, endpoint) === undefined);

/** The models a key may use, each with only the endpoints it may be routed to, in the catalog's order. */
export function modelsForKey(models: readonly Model[], allowed: EndpointAllowed): Model[] {
  return models.flatMap((model) => {
    const endpoints = model.endpoints.filter((endpoint) => allowed(model.id, endpoint));
    if (endpoints.length === 0) return [];
    return [endpoints.length === model.endpoints.length ? model : { ...model, endpoints }];
  });
}

/** Where a key's filter is read from: the caches the chat path reads, so both see the same rules. */
export interface KeyFilterSources {
  organizationSettings: { get(organizationId: string): Promise<OrganizationSettings> };
  guardrails: { get(organizationId: string): Promise<OrganizationGuardrails> };
}

/** The filter of the key that authenticated a request (after requireKey). */
export const endpointsOfKey =
  (sources: KeyFilterSources) =>
  async (request: FastifyRequest): Promise<EndpointAllowed> => {
    const key = callerKey(request);
    const [settings, guardrails] = await Promise.all([
      sources.organizationSettings.get(key.organization_id),
      sources.guardrails.get(key.organization_id),
    ]);
    return keyEndpointFilter(readProviderPreferences(settings.provider), guardrails.forKey(key));
  };
