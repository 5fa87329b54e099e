import type { PollPolicy } from './job-state.js';
import { type PollerOptions, VideoPoller } from './video-poller.js';
import type { VideoServices } from './video-services.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The background poller of video jobs; started when the server is ready, stopped when it closes. */
    videoPoller: VideoPoller;
  }
}

/** Tuning of video jobs (tests shorten every wait). */
export type VideoTuning = Partial<PollPolicy & Omit<PollerOptions, 'onError'>>;

const DEFAULTS: PollPolicy & Omit<PollerOptions, 'onError'> = {
  intervalMs: 5_000,
  maxBackoffMs: 60_000,
  maxFailures: 10,
  maxAgeMs: 2 * 60 * 60 * 1000,
  tickMs: 1_000,
  leaseMs: 60_000,
  batch: 16,
};

/** The services and poller of video jobs over the app's database, catalog and clock. */
export function createVideoJobs(
  base: Omit<VideoServices, 'policy'>,
  tuning: VideoTuning,
  onError: (error: unknown) => void,
): { services: VideoServices; poller: VideoPoller } {
  const t = { ...DEFAULTS, ...tuning };
  const services: VideoServices = {
    ...base,
    policy: { intervalMs: t.intervalMs, maxBackoffMs: t.maxBackoffMs, maxFailures: t.maxFailures, maxAgeMs: t.maxAgeMs },
  };
  return { services, poller: new VideoPoller(services, { tickMs: t.tickMs, leaseMs: t.leaseMs, batch: t.batch, onError }) };
}
