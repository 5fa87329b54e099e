import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';

/** Where objects go in an S3-compatible store: the files storage's FILES_S3_* and an s3 destination's config. */
export interface S3Location {
  bucket: string;
  region: string;
  /** An S3-compatible store's URL (MinIO, R2, Ceph, …); AWS's own endpoint for the region when absent. */
  endpoint?: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`, as most S3-compatible stores want. */
  forcePathStyle: boolean;
  /** Put before every key (`gateway/`). */
  prefix: string;
  /** A key pair; the SDK's default chain (environment, instance role, …) when absent. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/**
 * A client of the location's store. Checksums are sent and checked only
 * where S3 requires them: the SDK's newer default (a CRC32 on every upload,
 * aws-chunked bodies) is refused by several S3-compatible stores.
 */
export function s3Client(location: S3Location, extra: Pick<S3ClientConfig, 'requestHandler' | 'maxAttempts'> = {}): S3Client {
  return new S3Client({
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    ...(location.credentials ? { credentials: location.credentials } : {}),
    ...extra,
  });
}
