import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../server.js';
import { S3_PATH, SIM_S3_CREDENTIALS } from './s3-route.js';
import { expectedSignature } from './sigv4.js';

let sim: Simulator;
let s3: S3Client;
const client = (credentials: { accessKeyId: string; secretAccessKey: string } = SIM_S3_CREDENTIALS) =>
  // The SDK's defaults otherwise: CRC32 checksums, aws-chunked streaming bodies.
  new S3Client({ endpoint: `${sim.url}${S3_PATH}`, region: 'us-east-1', forcePathStyle: true, credentials });

beforeAll(async () => {
  sim = await startSimulator();
  s3 = client();
  await s3.send(new CreateBucketCommand({ Bucket: 'box' }));
});
afterAll(() => sim.close());

const PIECE = 65543;
const CYCLE = Buffer.from(Array.from({ length: PIECE + 251 }, (_, i) => i % 251));
/** `total` bytes of a known pattern (byte i is i mod 251), in pieces of 64 KiB + 7. */
const pattern = (total: number) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < total; at += PIECE) yield CYCLE.subarray(at % 251, (at % 251) + Math.min(PIECE, total - at));
    })(),
  );
const md5 = async (body: AsyncIterable<Uint8Array>) => {
  const hash = createHash('md5');
  for await (const chunk of body) hash.update(chunk);
  return hash.digest('hex');
};
const text = async (key: string, range?: string) =>
  (await s3.send(new GetObjectCommand({ Bucket: 'box', Key: key, ...(range ? { Range: range } : {}) }))).Body!.transformToString();
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: { name: string; $metadata?: { httpStatusCode?: number } }) => ({ name: error.name, status: error.$metadata?.httpStatusCode }),
  );

describe('the simulated S3', () => {
  it('puts, heads, gets (whole and by range), deletes', async () => {
    const put = await s3.send(
      new PutObjectCommand({ Bucket: 'box', Key: 'dir/a b+c.txt', Body: '0123456789', ContentType: 'text/plain', Metadata: { who: 'me' } }),
    );
    expect(put.ETag).toBe(`"${createHash('md5').update('0123456789').digest('hex')}"`);
    const head = await s3.send(new HeadObjectCommand({ Bucket: 'box', Key: 'dir/a b+c.txt' }));
    expect(head).toMatchObject({ ContentLength: 10, ContentType: 'text/plain', ETag: put.ETag, Metadata: { who: 'me' } });
    expect(await text('dir/a b+c.txt')).toBe('0123456789');
    expect(await text('dir/a b+c.txt', 'bytes=2-5')).toBe('2345');
    expect(await text('dir/a b+c.txt', 'bytes=7-')).toBe('789');
    expect(await text('dir/a b+c.txt', 'bytes=-3')).toBe('789');
    const ranged = await s3.send(new GetObjectCommand({ Bucket: 'box', Key: 'dir/a b+c.txt', Range: 'bytes=8-100' }));
    expect(ranged.ContentRange).toBe('bytes 8-9/10');
    expect(await failure(text('dir/a b+c.txt', 'bytes=10-'))).toEqual({ name: 'InvalidRange', status: 416 });
    await s3.send(new DeleteObjectCommand({ Bucket: 'box', Key: 'dir/a b+c.txt' }));
    expect(await failure(text('dir/a b+c.txt'))).toEqual({ name: 'NoSuchKey', status: 404 });
    expect(await failure(s3.send(new HeadObjectCommand({ Bucket: 'box', Key: 'dir/a b+c.txt' })))).toEqual({
      name: 'NotFound',
      status: 404,
    });
    await s3.send(new DeleteObjectCommand({ Bucket: 'box', Key: 'never' })); // deleting nothing is no error
  });

  it('streams a body the SDK sends aws-chunked with a CRC32 trailer', async () => {
    await s3.send(new PutObjectCommand({ Bucket: 'box', Key: 'stream', Body: pattern(300_000), ContentLength: 300_000 }));
    expect(await md5((await s3.send(new GetObjectCommand({ Bucket: 'box', Key: 'stream' }))).Body as Readable)).toBe(
      await md5(pattern(300_000)),
    );
  });

  it('answers NoSuchBucket for a bucket that does not exist', async () => {
    expect(await failure(s3.send(new PutObjectCommand({ Bucket: 'nope', Key: 'k', Body: 'x' })))).toEqual({
      name: 'NoSuchBucket',
      status: 404,
    });
    expect(await failure(s3.send(new ListObjectsV2Command({ Bucket: 'nope' })))).toEqual({ name: 'NoSuchBucket', status: 404 });
  });

  it('refuses a wrong secret (SignatureDoesNotMatch) and an unknown key id (InvalidAccessKeyId)', async () => {
    const wrong = client({ ...SIM_S3_CREDENTIALS, secretAccessKey: 'not-the-secret' });
    expect(await failure(wrong.send(new GetObjectCommand({ Bucket: 'box', Key: 'stream' })))).toEqual({
      name: 'SignatureDoesNotMatch',
      status: 403,
    });
    const unknown = client({ ...SIM_S3_CREDENTIALS, accessKeyId: 'AKIAUNKNOWN000000000' });
    expect(await failure(unknown.send(new PutObjectCommand({ Bucket: 'box', Key: 'k', Body: 'x' })))).toEqual({
      name: 'InvalidAccessKeyId',
      status: 403,
    });
    expect((await fetch(`${sim.url}${S3_PATH}/box/stream`)).status).toBe(403);
    const unsigned = await fetch(`${sim.url}${S3_PATH}/box/stream`);
    expect(await unsigned.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('refuses a body that is not the one signed (XAmzContentSHA256Mismatch)', async () => {
    const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
    const host = new URL(sim.url).host;
    const payloadHash = createHash('sha256').update('signed body').digest('hex');
    const headers = { host, 'x-amz-date': amzDate, 'x-amz-content-sha256': payloadHash };
    const signature = expectedSignature({
      method: 'PUT',
      rawPath: `${S3_PATH}/box/tampered`,
      rawQuery: '',
      headers,
      signedHeaders: ['host', 'x-amz-content-sha256', 'x-amz-date'],
      payloadHash,
      amzDate,
      scope: { date: amzDate.slice(0, 8), region: 'us-east-1', service: 's3' },
      secret: SIM_S3_CREDENTIALS.secretAccessKey,
    });
    const answer = await fetch(`${sim.url}${S3_PATH}/box/tampered`, {
      method: 'PUT',
      headers: {
        ...headers,
        authorization: `AWS4-HMAC-SHA256 Credential=${SIM_S3_CREDENTIALS.accessKeyId}/${amzDate.slice(0, 8)}/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=${signature}`,
      },
      body: 'other body!',
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('<Code>XAmzContentSHA256Mismatch</Code>');
    expect(await failure(text('tampered'))).toEqual({ name: 'NoSuchKey', status: 404 });
  });

  it('lists with prefix, delimiter and pages (ListObjectsV2)', async () => {
    for (const key of ['l/a', 'l/b', 'l/c/1', 'l/c/2', 'l/d']) await s3.send(new PutObjectCommand({ Bucket: 'box', Key: key, Body: key }));
    const all = await s3.send(new ListObjectsV2Command({ Bucket: 'box', Prefix: 'l/' }));
    expect(all.Contents?.map((o) => o.Key)).toEqual(['l/a', 'l/b', 'l/c/1', 'l/c/2', 'l/d']);
    expect(all).toMatchObject({ KeyCount: 5, IsTruncated: false });
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: 'box', Prefix: 'l/', Delimiter: '/', MaxKeys: 2, ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((o) => o.Key!), ...(page.CommonPrefixes ?? []).map((p) => p.Prefix!));
      token = page.NextContinuationToken;
    } while (token);
    expect(keys.sort()).toEqual(['l/a', 'l/b', 'l/c/', 'l/d']);
  });

  it('takes a multipart upload through lib-storage, streamed, and joins its parts', async () => {
    const total = 11 * 1024 * 1024 + 5;
    const upload = new Upload({ client: s3, params: { Bucket: 'box', Key: 'big', Body: pattern(total) }, partSize: 5 * 1024 * 1024 });
    const done = await upload.done();
    expect(done.ETag).toMatch(/^"[0-9a-f]{32}-3"$/);
    const got = await s3.send(new GetObjectCommand({ Bucket: 'box', Key: 'big' }));
    expect(got.ContentLength).toBe(total);
    expect(await md5(got.Body as Readable)).toBe(await md5(pattern(total)));
  });

  it('refuses parts too small, parts not uploaded, and an aborted upload', async () => {
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: 'box', Key: 'parts' }));
    const one = await s3.send(new UploadPartCommand({ Bucket: 'box', Key: 'parts', UploadId, PartNumber: 1, Body: 'small' }));
    const two = await s3.send(new UploadPartCommand({ Bucket: 'box', Key: 'parts', UploadId, PartNumber: 2, Body: 'last' }));
    const complete = (parts: { PartNumber: number; ETag: string }[]) =>
      s3.send(new CompleteMultipartUploadCommand({ Bucket: 'box', Key: 'parts', UploadId, MultipartUpload: { Parts: parts } }));
    expect(
      await failure(
        complete([
          { PartNumber: 1, ETag: one.ETag! },
          { PartNumber: 2, ETag: two.ETag! },
        ]),
      ),
    ).toEqual({
      name: 'EntityTooSmall',
      status: 400,
    });
    expect(await failure(complete([{ PartNumber: 3, ETag: one.ETag! }]))).toEqual({ name: 'InvalidPart', status: 400 });
    await s3.send(new AbortMultipartUploadCommand({ Bucket: 'box', Key: 'parts', UploadId }));
    expect(await failure(complete([{ PartNumber: 1, ETag: one.ETag! }]))).toEqual({ name: 'NoSuchUpload', status: 404 });
  });
});
