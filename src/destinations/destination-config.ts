import type { SupportedType } from './destination-types.js';

export interface WebhookConfig {
  url: string;
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
}
export interface OtelCollectorConfig {
  endpoint: string;
  headers: Record<string, string>;
}
export interface LangfuseConfig {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  headers: Record<string, string>;
}
export interface S3DestinationConfig {
  bucketName: string;
  region: string;
  /** An S3-compatible store's URL; AWS's endpoint for the region when absent. */
  endpoint?: string;
  /** Bucket in the path, not the host name: true by default when an endpoint is named. */
  pathStyle?: boolean;
  prefix: string;
  /** Where a batch goes: {prefix}, {date}, {year}, {month}, {day}, {apiKeyName}; the file name is appended. */
  pathTemplate: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Sent with every request and signed with it; absent in configs stored before it existed. */
  headers?: Record<string, string>;
}
export interface LangsmithConfig {
  endpoint: string;
  apiKey: string;
  project: string;
  workspaceId?: string;
  headers: Record<string, string>;
}
export interface PosthogConfig {
  endpoint: string;
  apiKey: string;
  headers: Record<string, string>;
}
export interface DatadogConfig {
  url: string;
  apiKey: string;
  mlApp: string;
  headers: Record<string, string>;
}
export type DestinationConfig =
  | WebhookConfig
  | OtelCollectorConfig
  | LangfuseConfig
  | S3DestinationConfig
  | LangsmithConfig
  | PosthogConfig
  | DatadogConfig;

/** Langfuse's cloud, the reference's default baseUrl. */
const LANGFUSE_DEFAULT_BASE_URL = 'https://us.cloud.langfuse.com';

interface FieldRule {
  kind: 'url' | 'string' | 'headers' | 'method' | 'boolean';
  required: boolean;
  /** Write-only: sealed at rest, masked in every answer. */
  secret: boolean;
  /** Header names the exporter's client sets itself, which the config may not. */
  reserved?: RegExp;
}

const url = (required: boolean): FieldRule => ({ kind: 'url', required, secret: false });
const secret: FieldRule = { kind: 'string', required: true, secret: true };
const text = (required: boolean, secret = false): FieldRule => ({ kind: 'string', required, secret });
const headers: FieldRule = { kind: 'headers', required: false, secret: true };
/** What the S3 client sets for a request's framing and its SigV4 signature: a header of the config would break either. */
const S3_CLIENT_HEADERS =
  /^(authorization|host|content-(length|type|md5|encoding)|expect|x-amz-(date|content-sha256|security-token|user-agent|decoded-content-length|trailer|sdk-checksum-algorithm|checksum-.+))$/i;

/** Each supported type's config fields (the reference's Observability…Destination.config). */
const FIELDS: Record<SupportedType, Record<string, FieldRule>> = {
  webhook: { url: url(true), method: { kind: 'method', required: false, secret: false }, headers },
  'otel-collector': { endpoint: url(true), headers },
  langfuse: { baseUrl: url(false), publicKey: secret, secretKey: secret, headers },
  s3: {
    bucketName: text(true),
    region: text(false),
    endpoint: url(false),
    pathStyle: { kind: 'boolean', required: false, secret: false },
    prefix: text(false),
    pathTemplate: text(false),
    accessKeyId: secret,
    secretAccessKey: secret,
    sessionToken: text(false, true),
    headers: { ...headers, reserved: S3_CLIENT_HEADERS },
  },
  langsmith: { endpoint: url(false), apiKey: secret, project: text(false), workspaceId: text(false), headers },
  posthog: { endpoint: url(false), apiKey: secret, headers },
  datadog: { url: url(false), apiKey: secret, mlApp: text(true), headers },
};

const DEFAULTS: Record<SupportedType, Record<string, unknown>> = {
  webhook: { method: 'POST', headers: {} },
  'otel-collector': { headers: {} },
  langfuse: { baseUrl: LANGFUSE_DEFAULT_BASE_URL, headers: {} },
  s3: { region: 'us-east-1', prefix: 'openrouter-traces', pathTemplate: '{prefix}/{date}', headers: {} },
  // The reference's defaults: LangSmith's cloud and its "main" project, PostHog's US cloud, Datadog's US5 site.
  langsmith: { endpoint: 'https://api.smith.langchain.com', project: 'main', headers: {} },
  posthog: { endpoint: 'https://us.i.posthog.com', headers: {} },
  datadog: { url: 'https://api.us5.datadoghq.com', headers: {} },
};

/**
 * A type's config, checked field by field and completed with its defaults,
 * or the problem, naming the field (`config.url must be an http(s) URL`).
 */
export function parseConfig(type: SupportedType, config: Record<string, unknown>): { config: DestinationConfig } | { problem: string } {
  const fields = FIELDS[type];
  for (const name of Object.keys(config))
    if (!(name in fields))
      return { problem: `config.${name} is not a field of a ${type} destination (fields: ${Object.keys(fields).join(', ')})` };
  const out: Record<string, unknown> = { ...DEFAULTS[type] };
  for (const [name, rule] of Object.entries(fields)) {
    const value = config[name];
    if (value === undefined || value === null) {
      if (rule.required) return { problem: `config.${name} is required for a ${type} destination` };
      continue;
    }
    const problem = fieldProblem(`config.${name}`, rule, value);
    if (problem) return { problem };
    out[name] = rule.kind === 'url' ? (value as string).replace(/\/+$/, '') : value;
  }
  return { config: out as unknown as DestinationConfig };
}

function fieldProblem(field: string, rule: FieldRule, value: unknown): string | undefined {
  switch (rule.kind) {
    case 'url':
      return typeof value === 'string' && isHttpUrl(value) ? undefined : `${field} must be an http(s) URL`;
    case 'string':
      return typeof value === 'string' && value.length > 0 ? undefined : `${field} must be a non-empty string`;
    case 'method':
      return value === 'POST' || value === 'PUT' ? undefined : `${field} must be POST or PUT`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${field} must be true or false`;
    case 'headers': {
      if (typeof value !== 'object' || Array.isArray(value)) return `${field} must be an object of header names to strings`;
      for (const [name, header] of Object.entries(value as Record<string, unknown>)) {
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return `${field} has an invalid header name: ${JSON.stringify(name)}`;
        if (typeof header !== 'string' || /[\r\n\0]/.test(header)) return `${field}.${name} must be a string on one line`;
        if (rule.reserved?.test(name)) return `${field}.${name} is set by the client itself (the request's framing or signature)`;
      }
      return undefined;
    }
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const parsed = new URL(value);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && !parsed.username && !parsed.password;
  } catch {
    return false;
  }
}

/** A secret as answers show it: the reference's `sk-l...AbCd` for a long one, stars for a short one (which its ends would give away). */
export const maskSecret = (value: string): string => (value.length >= 12 ? `${value.slice(0, 4)}...${value.slice(-4)}` : '********');

/** The config as every answer shows it: secrets (keys, header values) masked. */
export function maskConfig(type: SupportedType, config: DestinationConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const [name, rule] of Object.entries(FIELDS[type])) {
    const value = out[name];
    if (!rule.secret || value === undefined) continue;
    out[name] =
      rule.kind === 'headers'
        ? Object.fromEntries(Object.entries(value as Record<string, string>).map(([h, v]) => [h, maskSecret(v)]))
        : maskSecret(value as string);
  }
  return out;
}

/**
 * A PATCH's config over the stored one (the reference: "masked values are
 * ignored; unset fields keep their current value"): a secret sent back as
 * its mask keeps the stored secret, headers merge by name.
 */
export function mergeConfig(type: SupportedType, current: DestinationConfig, patch: Record<string, unknown>): Record<string, unknown> {
  const stored = current as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...stored };
  for (const [name, value] of Object.entries(patch)) {
    const rule = FIELDS[type][name];
    if (rule?.secret && rule.kind === 'headers' && value && typeof value === 'object' && !Array.isArray(value)) {
      const before = (stored[name] ?? {}) as Record<string, string>;
      out[name] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([h, v]) => [
          h,
          before[h] !== undefined && v === maskSecret(before[h]) ? before[h] : v,
        ]),
      );
    } else if (rule?.secret && typeof stored[name] === 'string' && value === maskSecret(stored[name] as string)) {
      out[name] = stored[name];
    } else out[name] = value;
  }
  return out;
}
