/** Every type of the reference's enum (CreateObservabilityDestinationRequest.type). */
export const DESTINATION_TYPES = [
  'arize',
  'braintrust',
  'clickhouse',
  'datadog',
  'grafana',
  'langfuse',
  'langsmith',
  'newrelic',
  'opik',
  'otel-collector',
  'posthog',
  'ramp',
  's3',
  'sentry',
  'snowflake',
  'weave',
  'webhook',
] as const;

/** The types this gateway has an exporter for (destinations/exporters); the others are refused. */
export const SUPPORTED_TYPES = ['webhook', 'otel-collector', 'langfuse', 's3', 'langsmith', 'posthog', 'datadog'] as const;
export type SupportedType = (typeof SUPPORTED_TYPES)[number];

/** At most this many live destinations of one type in one workspace. */
export const MAX_PER_TYPE = 5;

/** Why `type` cannot be created, or undefined. */
export function typeProblem(type: string): string | undefined {
  if (!(DESTINATION_TYPES as readonly string[]).includes(type)) return `type must be one of ${DESTINATION_TYPES.join(', ')}`;
  if (!(SUPPORTED_TYPES as readonly string[]).includes(type))
    return `type ${type} is not supported by this gateway; supported types: ${SUPPORTED_TYPES.join(', ')}`;
  return undefined;
}

export const isSupportedType = (type: string): type is SupportedType => (SUPPORTED_TYPES as readonly string[]).includes(type);
