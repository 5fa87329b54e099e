import type {
  DatadogConfig,
  DestinationConfig,
  LangfuseConfig,
  LangsmithConfig,
  OtelCollectorConfig,
  PosthogConfig,
  S3DestinationConfig,
  WebhookConfig,
} from '../destination-config.js';
import type { SupportedType } from '../destination-types.js';
import type { GenerationEvent } from '../generation-event.js';
import { exportDatadog } from './datadog.js';
import type { ExportContext } from './deliver.js';
import { exportLangfuse } from './langfuse.js';
import { exportLangsmith } from './langsmith.js';
import { exportOtel } from './otel-collector.js';
import { exportPosthog } from './posthog.js';
import { exportS3 } from './s3.js';
import { exportWebhook } from './webhook.js';

/**
 * Sends a batch to a destination; throws a DeliveryError. `sent` is told how
 * many of the batch's first events were delivered before a failure, for a
 * protocol that sends them one by one (the webhook): those are not sent again.
 */
export type Exporter = (
  config: DestinationConfig,
  events: readonly GenerationEvent[],
  context: ExportContext,
  sent: (count: number) => void,
) => Promise<void>;

export const EXPORTERS: Record<SupportedType, Exporter> = {
  webhook: (config, events, context, sent) => exportWebhook(config as WebhookConfig, events, context, sent),
  'otel-collector': (config, events, context) => exportOtel(config as OtelCollectorConfig, events, context),
  langfuse: (config, events, context) => exportLangfuse(config as LangfuseConfig, events, context),
  s3: (config, events, context) => exportS3(config as S3DestinationConfig, events, context),
  langsmith: (config, events, context) => exportLangsmith(config as LangsmithConfig, events, context),
  posthog: (config, events, context) => exportPosthog(config as PosthogConfig, events, context),
  datadog: (config, events, context) => exportDatadog(config as DatadogConfig, events, context),
};
