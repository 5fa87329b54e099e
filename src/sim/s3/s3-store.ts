import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { S3Error, S3Errors } from './s3-error.js';

/** An object's bytes (a file of the store's temporary directory) and what S3 tells of it. */
export interface S3Object {
  path: string;
  size: number;
  /** Quoted, as S3 sends it: the MD5 of the bytes, or for a multipart object the MD5 of the parts' MD5s and `-<parts>`. */
  etag: string;
  lastModified: Date;
  contentType: string;
  metadata: Record<string, string>;
}

interface Part {
  path: string;
  size: number;
  etag: string;
  md5: Buffer;
}

interface MultipartUpload {
  bucket: string;
  key: string;
  contentType: string;
  metadata: Record<string, string>;
  initiated: Date;
  parts: Map<number, Part>;
}

/** S3's smallest part, but for the last one (EntityTooSmall). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/**
 * The simulated S3's buckets: objects and the parts of multipart uploads are
 * files of one temporary directory (made when first needed, removed by
 * close), so that a large upload is never held in memory.
 */
export class S3Store {
  private readonly buckets = new Map<string, Map<string, S3Object>>();
  private readonly uploads = new Map<string, MultipartUpload>();
  private dir: Promise<string> | undefined;

  private async file(): Promise<string> {
    this.dir ??= mkdtemp(join(tmpdir(), 'mg-sim-s3-'));
    return join(await this.dir, randomBytes(12).toString('hex'));
  }

  /** Writes `body` to a new file of the store; removes it when the body fails. */
  async keep(body: AsyncIterable<Buffer>): Promise<string> {
    const path = await this.file();
    try {
      await pipeline(body, createWriteStream(path, { flags: 'wx' }));
      return path;
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
  }

  createBucket(name: string): void {
    if (this.buckets.has(name))
      throw new S3Error(
        409,
        'BucketAlreadyOwnedByYou',
        'Your previous request to create the named bucket succeeded and you already own it.',
        {
          BucketName: name,
        },
      );
    this.buckets.set(name, new Map());
  }

  bucket(name: string): Map<string, S3Object> {
    const bucket = this.buckets.get(name);
    if (!bucket) throw S3Errors.noSuchBucket(name);
    return bucket;
  }

  deleteBucket(name: string): void {
    if (this.bucket(name).size > 0)
      throw new S3Error(409, 'BucketNotEmpty', 'The bucket you tried to delete is not empty', { BucketName: name });
    this.buckets.delete(name);
  }

  object(bucket: string, key: string): S3Object {
    const object = this.bucket(bucket).get(key);
    if (!object) throw S3Errors.noSuchKey(key);
    return object;
  }

  async put(bucket: string, key: string, object: S3Object): Promise<void> {
    const objects = this.bucket(bucket);
    const before = objects.get(key);
    objects.set(key, object);
    if (before) await rm(before.path, { force: true });
  }

  async delete(bucket: string, key: string): Promise<void> {
    const objects = this.bucket(bucket);
    const object = objects.get(key);
    objects.delete(key);
    if (object) await rm(object.path, { force: true });
  }

  createUpload(bucket: string, key: string, contentType: string, metadata: Record<string, string>): string {
    this.bucket(bucket);
    const id = randomBytes(24).toString('base64url');
    this.uploads.set(id, { bucket, key, contentType, metadata, initiated: new Date(), parts: new Map() });
    return id;
  }

  upload(bucket: string, key: string, uploadId: string): MultipartUpload {
    this.bucket(bucket);
    const upload = this.uploads.get(uploadId);
    if (!upload || upload.bucket !== bucket || upload.key !== key) throw S3Errors.noSuchUpload(uploadId);
    return upload;
  }

  /** The bucket's uploads in progress, by key. */
  openUploads(bucket: string): { key: string; uploadId: string; initiated: Date }[] {
    this.bucket(bucket);
    return [...this.uploads.entries()]
      .filter(([, upload]) => upload.bucket === bucket)
      .map(([uploadId, upload]) => ({ key: upload.key, uploadId, initiated: upload.initiated }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async putPart(upload: MultipartUpload, number: number, part: Part): Promise<void> {
    const before = upload.parts.get(number);
    upload.parts.set(number, part);
    if (before) await rm(before.path, { force: true });
  }

  async abort(bucket: string, key: string, uploadId: string): Promise<void> {
    const upload = this.upload(bucket, key, uploadId);
    this.uploads.delete(uploadId);
    await Promise.all([...upload.parts.values()].map((part) => rm(part.path, { force: true })));
  }

  /**
   * CompleteMultipartUpload: the listed parts, in ascending order, each as
   * uploaded (its ETag) and all but the last of at least 5 MiB, joined into
   * the object; the parts not listed are dropped.
   */
  async complete(bucket: string, key: string, uploadId: string, listed: { number: number; etag: string }[]): Promise<S3Object> {
    const upload = this.upload(bucket, key, uploadId);
    if (listed.length === 0) throw S3Errors.malformedXml();
    const parts: Part[] = [];
    for (const [index, { number, etag }] of listed.entries()) {
      if (index > 0 && number <= listed[index - 1]!.number)
        throw new S3Error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.');
      const part = upload.parts.get(number);
      if (!part || part.etag !== `"${etag.replace(/^"|"$/g, '')}"`)
        throw new S3Error(
          400,
          'InvalidPart',
          "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
          { UploadId: uploadId, PartNumber: String(number), ETag: etag },
        );
      if (index < listed.length - 1 && part.size < MIN_PART_BYTES)
        throw new S3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', {
          ProposedSize: String(part.size),
          MinSizeAllowed: String(MIN_PART_BYTES),
          PartNumber: String(number),
        });
      parts.push(part);
    }
    const path = await this.keep(
      (async function* () {
        for (const part of parts) yield* createReadStream(part.path) as AsyncIterable<Buffer>;
      })(),
    );
    this.uploads.delete(uploadId);
    await Promise.all([...upload.parts.values()].map((part) => rm(part.path, { force: true })));
    const digest = createHash('md5')
      .update(Buffer.concat(parts.map((part) => part.md5)))
      .digest('hex');
    const object: S3Object = {
      path,
      size: parts.reduce((sum, part) => sum + part.size, 0),
      etag: `"${digest}-${parts.length}"`,
      lastModified: new Date(),
      contentType: upload.contentType,
      metadata: upload.metadata,
    };
    await this.put(bucket, key, object);
    return object;
  }

  async close(): Promise<void> {
    if (this.dir) await rm(await this.dir, { recursive: true, force: true });
  }
}
