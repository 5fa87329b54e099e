import { withCredentialKey } from '../byok/credential-target.js';
import type { Catalog, Endpoint } from '../catalog/types.js';
import { Errors } from '../http/errors.js';
import type { UpstreamTarget } from '../protocol/upstream.js';
import type { Attempt } from '../routing/plan-attempts.js';

/** The adapter of an attempt's endpoint and the target to call, as the catalog resolves them. */
export function adapterFor<A>(
  services: { catalog: Catalog; adapters: Readonly<Record<string, A>> },
  attempt: Attempt<Endpoint>,
): { adapter: A; target: UpstreamTarget } {
  const model = services.catalog.getModel(attempt.modelId);
  if (!model) throw Errors.modelNotFound(attempt.modelId);
  const own = services.catalog.targetFor(model, attempt.endpoint);
  const target = withCredentialKey(own, attempt.credential);
  const adapter = services.adapters[target.kind];
  if (!adapter) throw Errors.internal();
  return { adapter, target };
}
