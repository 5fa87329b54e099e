import type { WebhookConfig } from '../destination-config.js';
import type { GenerationEvent } from '../generation-event.js';
import { deliver, type ExportContext } from './deliver.js';

/** A webhook receives one JSON document per generation (the GenerationEvent), in order, with the configured method and headers. */
export async function exportWebhook(
  config: WebhookConfig,
  events: readonly GenerationEvent[],
  context: ExportContext,
  sent: (count: number) => void,
): Promise<void> {
  for (const [index, event] of events.entries()) {
    await deliver(context, config.url, {
      method: config.method,
      headers: { ...config.headers, 'content-type': 'application/json', 'x-generation-id': event.id },
      body: JSON.stringify(event),
    });
    sent(index + 1);
  }
}
