import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * How often the event loop's delay is sampled (prom-client's default, said here because readers of
 * nodejs_eventloop_lag_* need it: each value is the time between two samples, this interval included).
 */
export const EVENT_LOOP_SAMPLE_MS = 10;

/**
 * The process's own metrics (CPU, memory, event-loop delay, GC, handles: prom-client's default
 * metrics). They are the process's, whatever app serves them: one registry per process, made at the
 * first scrape (its event-loop monitor and GC observer then run for good), never prom-client's global one.
 */
export function processMetrics(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  }
  return registry;
}
