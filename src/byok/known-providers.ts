import type { Catalog } from '../catalog/types.js';

/** The provider slugs a BYOK credential may name: those of the gateway's catalog, sorted (what a 400 lists). */
export function knownProviderSlugs(catalog: Pick<Catalog, 'providers'>): string[] {
  return [...catalog.providers.keys()].sort();
}
