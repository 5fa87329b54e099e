import { existsSync } from 'node:fs';
import type { ContainerSettings } from '../containers/container-settings.js';
import { FILE_DEFAULTS, type FileSettings } from '../files/file-settings.js';
import { STORAGE_KINDS, type StorageKind } from '../files/storage/file-storage.js';
import { type ClientLimits, DEFAULT_CLIENT_LIMITS } from '../http/client-limits.js';
import type { S3Location } from '../net/s3-client.js';
import { DEFAULT_UPSTREAM_BODY_LIMITS, type UpstreamBodyLimits } from '../providers/shared/upstream-body-limits.js';
import { POSTGRES_POOL_DEFAULTS, REDIS_DEFAULTS } from '../store/shared-service-defaults.js';
import { bootstrapKeyProblem } from './bootstrap-key.js';
import { readContainerSettings } from './container-settings-env.js';
import { type ObservabilityEnvironment, readObservabilitySettings } from './observability-settings.js';
import { connectionCap, openFileLimit } from './open-file-limit.js';
import { SettingsError } from './settings-error.js';

/** What the process environment says; read once at start. */
export interface Settings {
  host: string;
  port: number;
  databaseUrl: string;
  /** Path of the YAML config file, when there is one. */
  configPath: string | undefined;
  bootstrapManagementKey: string | undefined;
  redisUrl: string | undefined;
  logLevel: string;
  /** What clients may send and how long they may take (docs/operations.md, "Limits and timeouts"). */
  clientLimits: ClientLimits;
  /** How much of an upstream's answer the gateway holds. */
  upstreamLimits: UpstreamBodyLimits;
  /** How long a stop waits for requests in flight before it ends them (docs/operations.md, "Starting and stopping"). */
  drainTimeoutMs: number;
  /** How the gateway waits for PostgreSQL and Redis, and where ledger rows wait while the database is away (docs/operations.md, "When PostgreSQL or Redis go away"). */
  sharedServices: SharedServiceSettings;
  /** Metrics, the access log and traces (docs/operations.md, "Metrics", "Traces", "Access log"). */
  observability: ObservabilityEnvironment;
  /** Uploaded files: their storage, size cap and workspace quota (docs/files.md, "Settings"). */
  files: FileSettings;
  /** Containers of the code_interpreter tool: directory, sandbox caps, prices (docs/containers.md, "Settings"). */
  containers: ContainerSettings;
}

export interface SharedServiceSettings {
  /** DATABASE_CONNECT_TIMEOUT_MS: a PostgreSQL connection not made by then fails. */
  databaseConnectTimeoutMs: number;
  /** DATABASE_QUERY_TIMEOUT_MS: a PostgreSQL query not answered by then fails, and its connection is dropped. */
  databaseQueryTimeoutMs: number;
  /** REDIS_COMMAND_TIMEOUT_MS: a Redis command not answered by then fails, and the instance uses its own state. */
  redisCommandTimeoutMs: number;
  /** LEDGER_OUTBOX_DIR: where ledger rows accepted while the database is away are kept, one file per process. */
  ledgerOutboxDir: string;
  /** LEDGER_OUTBOX_MAX_BYTES: past this, the outbox takes no more rows and paid requests get 503. */
  ledgerOutboxMaxBytes: number;
}

export const SHARED_SERVICE_DEFAULTS: SharedServiceSettings = {
  databaseConnectTimeoutMs: POSTGRES_POOL_DEFAULTS.connectTimeoutMs,
  databaseQueryTimeoutMs: POSTGRES_POOL_DEFAULTS.queryTimeoutMs,
  redisCommandTimeoutMs: REDIS_DEFAULTS.commandTimeoutMs,
  ledgerOutboxDir: './data/ledger-outbox',
  ledgerOutboxMaxBytes: 1024 ** 3,
};

export { SettingsError } from './settings-error.js';

const DEFAULT_CONFIG_PATH = './gateway.yaml';
const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

/** A whole number from 1 to `max` from the environment, or the default when the variable is unset or empty. */
function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    const range = max < Number.MAX_SAFE_INTEGER ? `from 1 to ${max}` : 'of at least 1';
    throw new SettingsError(`${name} must be a whole number ${range} (got "${env[name]}")`);
  }
  return value;
}

/** Deeper bodies could exhaust the stack of the gateway's own recursive code (validation, translation, serialization). */
const MAX_JSON_DEPTH_SETTING = 1_000;

/** `openFiles` reads the process's descriptor limit, which sets the default MAX_CONNECTIONS. */
export function readSettings(env: NodeJS.ProcessEnv = process.env, openFiles: () => number | undefined = openFileLimit): Settings {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SettingsError(`PORT must be an integer from 0 to 65535 (got "${env.PORT}")`);
  }
  const bootstrapKey = env.GATEWAY_BOOTSTRAP_MANAGEMENT_KEY?.trim();
  // A guessable first management key opens the whole gateway: a weak one is refused before anything starts.
  const keyProblem = bootstrapKey ? bootstrapKeyProblem(bootstrapKey) : undefined;
  if (keyProblem) throw new SettingsError(keyProblem);
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    databaseUrl: env.DATABASE_URL ?? 'sqlite:./data/gateway.sqlite',
    configPath: env.GATEWAY_CONFIG ?? (existsSync(DEFAULT_CONFIG_PATH) ? DEFAULT_CONFIG_PATH : undefined),
    bootstrapManagementKey: bootstrapKey || undefined,
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    clientLimits: readClientLimits(env, openFiles),
    upstreamLimits: {
      maxAnswerBytes: positiveInteger(env, 'UPSTREAM_MAX_ANSWER_BYTES', DEFAULT_UPSTREAM_BODY_LIMITS.maxAnswerBytes),
      maxErrorBytes: positiveInteger(env, 'UPSTREAM_MAX_ERROR_BYTES', DEFAULT_UPSTREAM_BODY_LIMITS.maxErrorBytes),
    },
    drainTimeoutMs: positiveInteger(env, 'DRAIN_TIMEOUT_MS', DEFAULT_DRAIN_TIMEOUT_MS),
    sharedServices: readSharedServiceSettings(env),
    observability: readObservabilitySettings(env),
    files: readFileSettings(env),
    containers: readContainerSettings(env),
  };
}

function readFileSettings(env: NodeJS.ProcessEnv): FileSettings {
  const storage = env.FILES_STORAGE?.trim() || FILE_DEFAULTS.storage;
  if (!STORAGE_KINDS.includes(storage as StorageKind))
    throw new SettingsError(`FILES_STORAGE must be one of ${STORAGE_KINDS.join(', ')} (got "${env.FILES_STORAGE}")`);
  return {
    storage: storage as StorageKind,
    directory: env.FILES_DIR?.trim() || FILE_DEFAULTS.directory,
    maxBytes: positiveInteger(env, 'FILES_MAX_BYTES', FILE_DEFAULTS.maxBytes),
    workspaceQuotaBytes: positiveInteger(env, 'FILES_WORKSPACE_QUOTA_BYTES', FILE_DEFAULTS.workspaceQuotaBytes),
    ...(storage === 's3' ? { s3: readS3FileSettings(env) } : {}),
  };
}

/** FILES_S3_*: the bucket of FILES_STORAGE=s3 (docs/files.md, "Storage"). */
function readS3FileSettings(env: NodeJS.ProcessEnv): S3Location {
  const read = (name: string) => env[name]?.trim() || undefined;
  const bucket = read('FILES_S3_BUCKET');
  if (!bucket) throw new SettingsError('FILES_S3_BUCKET is required when FILES_STORAGE is s3');
  const endpoint = read('FILES_S3_ENDPOINT');
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint))
    throw new SettingsError(`FILES_S3_ENDPOINT must be an http(s) URL (got "${endpoint}")`);
  const pathStyle = read('FILES_S3_FORCE_PATH_STYLE');
  if (pathStyle !== undefined && pathStyle !== 'true' && pathStyle !== 'false')
    throw new SettingsError(`FILES_S3_FORCE_PATH_STYLE must be true or false (got "${pathStyle}")`);
  const accessKeyId = read('FILES_S3_ACCESS_KEY_ID');
  const secretAccessKey = read('FILES_S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    throw new SettingsError(
      'FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY go together: set both, or neither for the default credentials',
    );
  return {
    bucket,
    region: read('FILES_S3_REGION') ?? 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    // An S3-compatible store's endpoint is path-style as a rule; AWS's own is virtual-hosted.
    forcePathStyle: pathStyle === undefined ? endpoint !== undefined : pathStyle === 'true',
    prefix: read('FILES_S3_PREFIX') ?? '',
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
  };
}

function readSharedServiceSettings(env: NodeJS.ProcessEnv): SharedServiceSettings {
  const defaults = SHARED_SERVICE_DEFAULTS;
  return {
    databaseConnectTimeoutMs: positiveInteger(env, 'DATABASE_CONNECT_TIMEOUT_MS', defaults.databaseConnectTimeoutMs),
    databaseQueryTimeoutMs: positiveInteger(env, 'DATABASE_QUERY_TIMEOUT_MS', defaults.databaseQueryTimeoutMs),
    redisCommandTimeoutMs: positiveInteger(env, 'REDIS_COMMAND_TIMEOUT_MS', defaults.redisCommandTimeoutMs),
    ledgerOutboxDir: env.LEDGER_OUTBOX_DIR?.trim() || defaults.ledgerOutboxDir,
    ledgerOutboxMaxBytes: positiveInteger(env, 'LEDGER_OUTBOX_MAX_BYTES', defaults.ledgerOutboxMaxBytes),
  };
}

function readClientLimits(env: NodeJS.ProcessEnv, openFiles: () => number | undefined): ClientLimits {
  // Read only when not set: it may start a shell (see open-file-limit.ts).
  const explicit = env.MAX_CONNECTIONS?.trim();
  const descriptors = explicit ? undefined : openFiles();
  return {
    headersTimeoutMs: positiveInteger(env, 'HEADERS_TIMEOUT_MS', DEFAULT_CLIENT_LIMITS.headersTimeoutMs),
    bodyTimeoutMs: positiveInteger(env, 'BODY_TIMEOUT_MS', DEFAULT_CLIENT_LIMITS.bodyTimeoutMs),
    bodyLimit: positiveInteger(env, 'MAX_BODY_BYTES', DEFAULT_CLIENT_LIMITS.bodyLimit),
    transcriptionMaxBytes: positiveInteger(env, 'TRANSCRIPTION_MAX_BYTES', DEFAULT_CLIENT_LIMITS.transcriptionMaxBytes),
    maxJsonDepth: positiveInteger(env, 'MAX_JSON_DEPTH', DEFAULT_CLIENT_LIMITS.maxJsonDepth, MAX_JSON_DEPTH_SETTING),
    maxConnections: explicit
      ? positiveInteger(env, 'MAX_CONNECTIONS', 1)
      : descriptors === undefined
        ? undefined
        : connectionCap(descriptors),
  };
}
