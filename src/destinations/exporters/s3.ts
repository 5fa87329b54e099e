import { PutObjectCommand } from '@aws-sdk/client-s3';
import { s3Client } from '../../net/s3-client.js';
import { safeFetchHandler } from '../../net/s3-safe-handler.js';
import { SafeFetchError } from '../../net/safe-fetch.js';
import type { S3DestinationConfig } from '../destination-config.js';
import type { GenerationEvent } from '../generation-event.js';
import { DeliveryError, type ExportContext, retryableStatus } from './deliver.js';

/** An S3 error answer is read up to this many bytes (its XML is small). */
const MAX_ANSWER_BYTES = 64 * 1024;

/** One object of a batch: its key and its JSON Lines. */
export interface S3Batch {
  key: string;
  body: string;
}

/** The folder of an event: the path template with the event's date (UTC) and key name, without empty segments. */
export function folderOf(config: Pick<S3DestinationConfig, 'pathTemplate' | 'prefix'>, event: GenerationEvent): string {
  const date = event.created_at.slice(0, 10);
  const values: Record<string, string> = {
    prefix: config.prefix,
    date,
    year: date.slice(0, 4),
    month: date.slice(5, 7),
    day: date.slice(8, 10),
    apiKeyName: event.identity?.api_key_name ?? 'unknown',
  };
  return config.pathTemplate
    .replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)
    .split('/')
    .filter((segment) => segment.length > 0)
    .join('/');
}

/**
 * A batch as objects: one a folder (the events of one day, or of one key
 * name), one generation a line, in order. An object is named by its first
 * generation (`<created_at>-<id>.jsonl`), so a batch sent again replaces
 * its object rather than adding one.
 */
export function s3Batches(config: Pick<S3DestinationConfig, 'pathTemplate' | 'prefix'>, events: readonly GenerationEvent[]): S3Batch[] {
  const folders = new Map<string, GenerationEvent[]>();
  for (const event of events) {
    const folder = folderOf(config, event);
    folders.set(folder, [...(folders.get(folder) ?? []), event]);
  }
  return [...folders].map(([folder, batch]) => {
    const first = batch[0]!;
    const name = `${first.created_at.replace(/[-:.]/g, '')}-${first.id}.jsonl`;
    return { key: folder ? `${folder}/${name}` : name, body: batch.map((event) => `${JSON.stringify(event)}\n`).join('') };
  });
}

/**
 * The s3 destination: JSON Lines objects (s3Batches) put with the AWS SDK's
 * PutObject to any S3-compatible store, through the SSRF-safe fetcher, with
 * the config's custom headers. The sender's backoff does the retrying, so the
 * SDK tries once.
 */
export async function exportS3(config: S3DestinationConfig, events: readonly GenerationEvent[], context: ExportContext): Promise<void> {
  const client = s3Client(
    {
      bucket: config.bucketName,
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.pathStyle ?? config.endpoint !== undefined,
      prefix: config.prefix,
      credentials: {
        accessKeyId: config.accessKeyId,
        secretAccessKey: config.secretAccessKey,
        ...(config.sessionToken ? { sessionToken: config.sessionToken } : {}),
      },
    },
    {
      requestHandler: safeFetchHandler(context.fetcher, {
        timeoutMs: context.timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
        ...(context.signal ? { signal: context.signal } : {}),
      }),
      maxAttempts: 1,
    },
  );
  const headers = config.headers ?? {};
  // Added when the request is built, before it is signed: S3 checks every x-amz-* header against the signature.
  if (Object.keys(headers).length > 0)
    client.middlewareStack.add(
      (next) => (args) => {
        Object.assign((args.request as { headers: Record<string, string> }).headers, headers);
        return next(args);
      },
      { step: 'build', name: 'destinationHeaders' },
    );
  try {
    for (const batch of s3Batches(config, events))
      await client.send(
        new PutObjectCommand({ Bucket: config.bucketName, Key: batch.key, Body: batch.body, ContentType: 'application/x-ndjson' }),
      );
  } catch (error) {
    throw deliveryError(config, error);
  } finally {
    client.destroy();
  }
}

function deliveryError(config: S3DestinationConfig, error: unknown): unknown {
  const where = `s3://${config.bucketName}`;
  if (error instanceof SafeFetchError)
    return new DeliveryError(
      `${where}: ${error.message}`,
      error.failure === 'timeout' || error.failure === 'connection' || error.failure === 'aborted',
    );
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  if (status !== undefined)
    return new DeliveryError(
      `${where} answered ${status}: ${(error as Error).name}: ${(error as Error).message}`.slice(0, 300),
      retryableStatus(status),
    );
  return error;
}
