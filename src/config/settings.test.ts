import { describe, expect, it } from 'vitest';
import { connectionCap } from './open-file-limit.js';
import { readSettings, SettingsError } from './settings.js';

const noLimit = () => undefined;

describe('readSettings: limits', () => {
  it('gives the documented defaults', () => {
    const settings = readSettings({}, noLimit);
    expect(settings.clientLimits).toEqual({
      headersTimeoutMs: 30_000,
      bodyTimeoutMs: 30_000,
      bodyLimit: 10_485_760,
      transcriptionMaxBytes: 26_214_400,
      maxJsonDepth: 64,
      maxConnections: undefined,
    });
    expect(settings.upstreamLimits).toEqual({ maxAnswerBytes: 33_554_432, maxErrorBytes: 8_192 });
  });

  it('reads each limit from its variable', () => {
    const settings = readSettings(
      {
        HEADERS_TIMEOUT_MS: '1000',
        BODY_TIMEOUT_MS: '2000',
        MAX_BODY_BYTES: '4096',
        TRANSCRIPTION_MAX_BYTES: '8192',
        MAX_JSON_DEPTH: '32',
        MAX_CONNECTIONS: '100',
        UPSTREAM_MAX_ANSWER_BYTES: '1048576',
        UPSTREAM_MAX_ERROR_BYTES: '1024',
      },
      () => 512,
    );
    expect(settings.clientLimits).toEqual({
      headersTimeoutMs: 1000,
      bodyTimeoutMs: 2000,
      bodyLimit: 4096,
      transcriptionMaxBytes: 8192,
      maxJsonDepth: 32,
      maxConnections: 100,
    });
    expect(settings.upstreamLimits).toEqual({ maxAnswerBytes: 1_048_576, maxErrorBytes: 1024 });
  });

  it('caps connections below the descriptor limit when MAX_CONNECTIONS is not set', () => {
    expect(readSettings({}, () => 512).clientLimits.maxConnections).toBe(224);
    expect(readSettings({}, () => 20_000).clientLimits.maxConnections).toBe(9_968);
  });

  it.each([
    ['HEADERS_TIMEOUT_MS', '0', 'HEADERS_TIMEOUT_MS must be a whole number of at least 1 (got "0")'],
    ['BODY_TIMEOUT_MS', '1.5', 'BODY_TIMEOUT_MS must be a whole number of at least 1 (got "1.5")'],
    ['MAX_CONNECTIONS', 'many', 'MAX_CONNECTIONS must be a whole number of at least 1 (got "many")'],
    ['UPSTREAM_MAX_ANSWER_BYTES', '-5', 'UPSTREAM_MAX_ANSWER_BYTES must be a whole number of at least 1 (got "-5")'],
    ['MAX_JSON_DEPTH', '5000', 'MAX_JSON_DEPTH must be a whole number from 1 to 1000 (got "5000")'],
  ])('refuses %s=%s naming the variable and the rule', (name, value, message) => {
    expect(() => readSettings({ [name]: value }, noLimit)).toThrow(new SettingsError(message));
  });
});

describe('connectionCap', () => {
  it('leaves the reserve, then half the rest for clients (each may hold an upstream connection)', () => {
    expect(connectionCap(1024)).toBe(480);
    expect(connectionCap(512)).toBe(224);
    expect(connectionCap(64)).toBe(1);
  });
});

describe('readSettings: shared services', () => {
  it('gives the documented defaults, and reads each from its variable', () => {
    expect(readSettings({}, noLimit).sharedServices).toEqual({
      databaseConnectTimeoutMs: 5_000,
      databaseQueryTimeoutMs: 30_000,
      redisCommandTimeoutMs: 50,
      ledgerOutboxDir: './data/ledger-outbox',
      ledgerOutboxMaxBytes: 1_073_741_824,
    });
    const env = {
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_QUERY_TIMEOUT_MS: '2000',
      REDIS_COMMAND_TIMEOUT_MS: '20',
      LEDGER_OUTBOX_DIR: '/var/lib/gateway/outbox',
      LEDGER_OUTBOX_MAX_BYTES: '4096',
    };
    expect(readSettings(env, noLimit).sharedServices).toEqual({
      databaseConnectTimeoutMs: 1000,
      databaseQueryTimeoutMs: 2000,
      redisCommandTimeoutMs: 20,
      ledgerOutboxDir: '/var/lib/gateway/outbox',
      ledgerOutboxMaxBytes: 4096,
    });
    expect(() => readSettings({ REDIS_COMMAND_TIMEOUT_MS: 'fast' }, noLimit)).toThrow(
      new SettingsError('REDIS_COMMAND_TIMEOUT_MS must be a whole number of at least 1 (got "fast")'),
    );
  });
});

describe('readSettings: files', () => {
  it('keeps files in ./data/files, up to 512 MiB each and 10 GiB a workspace, unless told otherwise', () => {
    expect(readSettings({}, noLimit).files).toEqual({
      storage: 'directory',
      directory: './data/files',
      maxBytes: 536_870_912,
      workspaceQuotaBytes: 10_737_418_240,
    });
    const env = { FILES_STORAGE: 'database', FILES_DIR: '/srv/files', FILES_MAX_BYTES: '1024', FILES_WORKSPACE_QUOTA_BYTES: '4096' };
    expect(readSettings(env, noLimit).files).toEqual({
      storage: 'database',
      directory: '/srv/files',
      maxBytes: 1024,
      workspaceQuotaBytes: 4096,
    });
  });

  it('refuses a storage it does not have, and a size that is no whole number', () => {
    expect(() => readSettings({ FILES_STORAGE: 'floppy' }, noLimit)).toThrow(
      new SettingsError('FILES_STORAGE must be one of directory, database, s3 (got "floppy")'),
    );
    expect(() => readSettings({ FILES_MAX_BYTES: '1.5' }, noLimit)).toThrow(SettingsError);
  });

  it('reads the bucket of the s3 storage, path-style when an endpoint is named', () => {
    const env = {
      FILES_STORAGE: 's3',
      FILES_S3_BUCKET: 'gateway-files',
      FILES_S3_ENDPOINT: 'http://minio:9000',
      FILES_S3_ACCESS_KEY_ID: 'AKIA1',
      FILES_S3_SECRET_ACCESS_KEY: 'secret',
      FILES_S3_PREFIX: 'files/',
    };
    expect(readSettings(env, noLimit).files.s3).toEqual({
      bucket: 'gateway-files',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      prefix: 'files/',
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'secret' },
    });
    expect(readSettings({ FILES_STORAGE: 's3', FILES_S3_BUCKET: 'b', FILES_S3_REGION: 'eu-west-1' }, noLimit).files.s3).toEqual({
      bucket: 'b',
      region: 'eu-west-1',
      forcePathStyle: false,
      prefix: '',
    });
    expect(readSettings({ FILES_S3_BUCKET: 'b' }, noLimit).files.s3).toBeUndefined();
  });

  it('refuses an s3 storage without a bucket, a half key pair, an endpoint that is no URL', () => {
    expect(() => readSettings({ FILES_STORAGE: 's3' }, noLimit)).toThrow(
      new SettingsError('FILES_S3_BUCKET is required when FILES_STORAGE is s3'),
    );
    expect(() => readSettings({ FILES_STORAGE: 's3', FILES_S3_BUCKET: 'b', FILES_S3_ACCESS_KEY_ID: 'AKIA1' }, noLimit)).toThrow(
      /FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY go together/,
    );
    expect(() => readSettings({ FILES_STORAGE: 's3', FILES_S3_BUCKET: 'b', FILES_S3_ENDPOINT: 'minio:9000' }, noLimit)).toThrow(
      /FILES_S3_ENDPOINT must be an http\(s\) URL/,
    );
    expect(() => readSettings({ FILES_STORAGE: 's3', FILES_S3_BUCKET: 'b', FILES_S3_FORCE_PATH_STYLE: 'yes' }, noLimit)).toThrow(
      /FILES_S3_FORCE_PATH_STYLE must be true or false/,
    );
  });
});
