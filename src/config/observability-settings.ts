import { SettingsError } from './settings-error.js';

/** The operations settings: GET /metrics, the access log, and where traces go (docs/configuration.md). */
export interface ObservabilityEnvironment {
  /** METRICS_TOKEN: required as a bearer token by GET /metrics when set. */
  metricsToken: string | undefined;
  /** METRICS_LISTEN (host:port): /metrics on this address of its own instead of the API's. */
  metricsListen: { host: string; port: number } | undefined;
  /** ACCESS_LOG (on/off, default on): one JSON line per request at info level. */
  accessLog: boolean;
  /** ACCESS_LOG_SAMPLE (0 to 1, default 1): the share of requests logged; the gateway's own failures (5xx) always are. */
  accessLogSample: number;
  /** Where OTLP/HTTP traces go, from the standard OTEL_* variables; undefined when they configure none: no traces. */
  tracesUrl: string | undefined;
  /** OTEL_SERVICE_NAME, the traces' service.name (model-gateway by default). */
  serviceName: string | undefined;
}

const ON = new Set(['on', 'true', '1', 'yes']);
const OFF = new Set(['off', 'false', '0', 'no']);

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const text = env[name]?.trim().toLowerCase();
  if (!text) return fallback;
  if (ON.has(text)) return true;
  if (OFF.has(text)) return false;
  throw new SettingsError(`${name} must be on or off (got "${env[name]}")`);
}

function share(env: NodeJS.ProcessEnv, name: string): number {
  const text = env[name]?.trim();
  if (!text) return 1;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new SettingsError(`${name} must be a number from 0 to 1 (got "${env[name]}")`);
  return value;
}

/** host:port, [v6]:port or :port (all interfaces). */
function listenAddress(env: NodeJS.ProcessEnv, name: string): { host: string; port: number } | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (!match || port > 65535) throw new SettingsError(`${name} must be host:port, e.g. 0.0.0.0:9464 (got "${env[name]}")`);
  return { host: match[1] ?? (match[2] || '0.0.0.0'), port };
}

/**
 * The OTLP/HTTP traces URL as the OpenTelemetry specification derives it: the traces endpoint as it is,
 * or the endpoint with /v1/traces; none when neither is set, the SDK is disabled, or another exporter
 * than OTLP is chosen. gRPC is refused: this gateway's exporter speaks OTLP over HTTP (JSON).
 */
export function tracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter && exporter !== 'otlp') return undefined;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim().toLowerCase();
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!traces && !base) return undefined;
  if (protocol === 'grpc')
    throw new SettingsError(
      'OTEL_EXPORTER_OTLP_PROTOCOL=grpc: this gateway sends traces over OTLP/HTTP; use an http/json endpoint (port 4318)',
    );
  return traces || `${base!.replace(/\/+$/, '')}/v1/traces`;
}

export function readObservabilitySettings(env: NodeJS.ProcessEnv): ObservabilityEnvironment {
  return {
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    metricsListen: listenAddress(env, 'METRICS_LISTEN'),
    accessLog: onOff(env, 'ACCESS_LOG', true),
    accessLogSample: share(env, 'ACCESS_LOG_SAMPLE'),
    tracesUrl: tracesUrl(env),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || undefined,
  };
}
