import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FileStorage } from './file-storage.js';

/** The size of an upload's parts (S3's least) and how many are sent at once: what a write holds in memory at most, 10 MiB. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_AT_ONCE = 2;

/**
 * Files as objects of an S3-compatible bucket (FILES_STORAGE=s3): what
 * instances share without a shared disk or a large database. A file is
 * written by lib-storage's Upload, a multipart upload of 5 MiB parts (a
 * single PutObject when smaller), so a reader never sees part of one and an
 * upload that fails is aborted, leaving nothing; it is read as the object's
 * body streams in.
 */
export function s3Storage(client: S3Client, bucket: string, prefix: string): FileStorage {
  const keyOf = (id: string) => `${prefix}${id}`;
  return {
    kind: 's3',
    async write(id, body) {
      let bytes = 0;
      const counted = Readable.from(
        (async function* () {
          for await (const chunk of body) {
            bytes += chunk.length;
            yield chunk;
          }
        })(),
        { objectMode: false },
      );
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: keyOf(id), Body: counted },
        partSize: PART_BYTES,
        queueSize: PARTS_AT_ONCE,
        leavePartsOnError: false,
      });
      await upload.done();
      return bytes;
    },
    read(id) {
      return Readable.from(
        (async function* () {
          const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(id) }));
          yield* object.Body as Readable;
        })(),
        { objectMode: false },
      );
    },
    async remove(id) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(id) }));
    },
  };
}
