import { existsSync } from 'node:fs';

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
}

export class SettingsError extends Error {}

const DEFAULT_CONFIG_PATH = './gateway.yaml';

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new SettingsError(`PORT must be an integer from 0 to 65535 (got "${env.PORT}")`);
  }
  const bootstrapKey = env.GATEWAY_BOOTSTRAP_MANAGEMENT_KEY?.trim();
  if (bootstrapKey !== undefined && bootstrapKey.length > 0 && bootstrapKey.length < 16) {
    throw new SettingsError('GATEWAY_BOOTSTRAP_MANAGEMENT_KEY must be at least 16 characters long');
  }
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    databaseUrl: env.DATABASE_URL ?? 'sqlite:./data/gateway.sqlite',
    configPath: env.GATEWAY_CONFIG ?? (existsSync(DEFAULT_CONFIG_PATH) ? DEFAULT_CONFIG_PATH : undefined),
    bootstrapManagementKey: bootstrapKey || undefined,
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
