import type { Registry } from 'prom-client';
import { processMetrics } from './process-metrics.js';

/** The text a scrape gets: the app's metrics, then the process's; both in Prometheus's text format. */
export async function exposition(registry: Registry): Promise<{ contentType: string; body: string }> {
  const [own, process] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
  return { contentType: registry.contentType, body: `${own}\n${process}` };
}
