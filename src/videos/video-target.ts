import { withCredentialKey } from '../byok/credential-target.js';
import type { Endpoint } from '../catalog/types.js';
import type { VideoAdapter, VideoOptions } from '../protocol/adapters.js';
import type { UpstreamTarget } from '../protocol/upstream.js';
import type { VideoJobRow } from '../store/repositories/video-jobs.js';
import type { VideoServices } from './video-services.js';

/** The adapter of an endpoint's provider, when its protocol makes videos. */
export const videoAdapterOf = (
  services: Pick<VideoServices, 'catalog' | 'adapters'>,
  endpoint: Pick<Endpoint, 'provider'>,
): VideoAdapter | undefined => services.adapters[services.catalog.providers.get(endpoint.provider)?.kind ?? ''];

/**
 * The adapter, upstream, endpoint and options a stored job was submitted
 * to, looked up again in the catalog, with the BYOK credential it went out
 * on, looked up by id (keys are never stored with the job): an upstream job
 * is only seen with the key that made it. Undefined when the catalog no
 * longer serves it or the credential is no longer usable.
 */
export function videoTarget(
  services: Pick<VideoServices, 'catalog' | 'adapters' | 'byok'>,
  job: Pick<VideoJobRow, 'model' | 'provider' | 'organization_id' | 'credential_id'>,
): { adapter: VideoAdapter; target: UpstreamTarget; endpoint: Endpoint; options: VideoOptions } | undefined {
  const model = services.catalog.getModel(job.model);
  const endpoint = model?.endpoints.find((e) => e.provider === job.provider);
  if (!model || !endpoint) return undefined;
  const credential = job.credential_id === null ? undefined : services.byok?.byId(job.organization_id, job.credential_id);
  if (job.credential_id !== null && !credential) return undefined;
  const target = withCredentialKey(services.catalog.targetFor(model, endpoint), credential);
  const adapter = services.adapters[target.kind];
  return adapter ? { adapter, target, endpoint, options: adapter.options(target.upstreamModel) } : undefined;
}
