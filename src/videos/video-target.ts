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
 * to, looked up again in the catalog (credentials are never stored with the
 * job). Undefined when the catalog no longer serves it.
 */
export function videoTarget(
  services: Pick<VideoServices, 'catalog' | 'adapters'>,
  job: Pick<VideoJobRow, 'model' | 'provider'>,
): { adapter: VideoAdapter; target: UpstreamTarget; endpoint: Endpoint; options: VideoOptions } | undefined {
  const model = services.catalog.getModel(job.model);
  const endpoint = model?.endpoints.find((e) => e.provider === job.provider);
  if (!model || !endpoint) return undefined;
  const target = services.catalog.targetFor(model, endpoint);
  const adapter = services.adapters[target.kind];
  return adapter ? { adapter, target, endpoint, options: adapter.options(target.upstreamModel) } : undefined;
}
