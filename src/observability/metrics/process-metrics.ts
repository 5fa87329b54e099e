import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * The process's own metrics (CPU, memory, event-loop delay, GC, handles: prom-client's default
 * metrics). They are the process's, whatever app serves them: one registry per process, made at the
 * first scrape (its event-loop monitor and GC observer then run for good), never prom-client's global one.
 */
export function processMetrics(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
