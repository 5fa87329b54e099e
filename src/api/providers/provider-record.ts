import { BUILTIN_PROVIDERS } from '../../catalog/builtin/index.js';
import type { Model, Provider, ProviderFacts } from '../../catalog/types.js';
import type { EndpointHealthView } from '../models/endpoints-record.js';
import { providerHealth } from './provider-health.js';

/** A provider to list: one the catalog serves, or one only known by its slug (a BYOK credential's `provider`). */
type Listed = Pick<Provider, 'id' | 'name'> & { facts?: ProviderFacts | undefined };

/** A slug the catalog does not serve, described by the built-in table when it knows it. */
function bySlug(slug: string): Listed {
  const builtin = BUILTIN_PROVIDERS.find((b) => b.id === slug);
  return builtin ? { id: slug, name: builtin.name, facts: builtin.facts } : { id: slug, name: slug };
}

/**
 * The reference's provider objects, plus each one's `health`: the catalog's
 * providers, then `extraSlugs` (providers served through BYOK credentials)
 * that the catalog does not have, each once.
 */
export function providerRecords(
  providers: Iterable<Provider>,
  models: readonly Model[],
  health: EndpointHealthView | undefined,
  extraSlugs: readonly string[] = [],
) {
  const listed = new Map<string, Listed>([...providers].map((p) => [p.id, p]));
  for (const slug of extraSlugs) if (!listed.has(slug)) listed.set(slug, bySlug(slug));
  return [...listed.values()].map(({ id, name, facts }) => ({
    name,
    slug: id,
    privacy_policy_url: facts?.privacyPolicyUrl ?? null,
    terms_of_service_url: facts?.termsOfServiceUrl ?? null,
    status_page_url: facts?.statusPageUrl ?? null,
    headquarters: facts?.headquarters ?? null,
    datacenters: facts?.datacenters ?? null,
    health: providerHealth(id, models, health),
  }));
}
