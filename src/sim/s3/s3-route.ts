import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { type BodyFacts, readS3Body } from './s3-body.js';
import { S3Error, S3Errors, sendS3Error, sendXml, xmlDocument } from './s3-error.js';
import { listObjectsV2 } from './s3-list.js';
import { type S3Object, S3Store } from './s3-store.js';
import { verifyRequest } from './sigv4.js';

/** The simulated S3's endpoint is `${simulator}/s3`, addressed path-style (`/s3/<bucket>/<key>`). */
export const S3_PATH = '/s3';

/** The one key pair the simulated S3 knows. */
export const SIM_S3_CREDENTIALS = {
  accessKeyId: 'AKIASIMULATOR0000000',
  secretAccessKey: 'sim/s3/secret/access/key/0000000000000',
} as const;

export interface SimS3 {
  store: S3Store;
}

export const newSimS3 = (): SimS3 => ({ store: new S3Store() });

const secretOf = (accessKeyId: string) => (accessKeyId === SIM_S3_CREDENTIALS.accessKeyId ? SIM_S3_CREDENTIALS.secretAccessKey : undefined);

/** Reads a body nobody keeps (a GET's, a CreateBucket's configuration), so that its hash is checked all the same. */
async function drain(req: IncomingMessage, payloadHash: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of readS3Body(req, payloadHash, { size: 0, md5: Buffer.alloc(0) })) {
    size += chunk.length;
    if (size > 1024 * 1024) throw new S3Error(400, 'MaxMessageLengthExceeded', 'Your request was too big.');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const metadataOf = (req: IncomingMessage): Record<string, string> =>
  Object.fromEntries(
    Object.entries(req.headers)
      .filter(([name]) => name.startsWith('x-amz-meta-'))
      .map(([name, value]) => [name.slice('x-amz-meta-'.length), String(value)]),
  );

const objectHeaders = (object: S3Object): Record<string, string> => ({
  etag: object.etag,
  'last-modified': object.lastModified.toUTCString(),
  'content-type': object.contentType,
  'accept-ranges': 'bytes',
  ...Object.fromEntries(Object.entries(object.metadata).map(([name, value]) => [`x-amz-meta-${name}`, value])),
});

/** A single range of `bytes=a-b`, `bytes=a-` or `bytes=-n` within `size` bytes; undefined for none, InvalidRange when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined; // S3 ignores a Range it cannot parse
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
    if (Number(match[2]) === 0) start = size;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return undefined;
  }
  if (start >= size)
    throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable', {
      RangeRequested: header!,
      ActualObjectSize: String(size),
    });
  return { start, end };
}

/** Keeps the request's body in a file of the store, checked as it arrives (readS3Body). */
async function keepBody(store: S3Store, req: IncomingMessage, payloadHash: string) {
  const facts: BodyFacts = { size: 0, md5: Buffer.alloc(0) };
  const path = await store.keep(readS3Body(req, payloadHash, facts));
  return { path, size: facts.size, md5: facts.md5, etag: `"${facts.md5.toString('hex')}"` };
}

/** The parts of a CompleteMultipartUpload document: `<Part><PartNumber>n</PartNumber><ETag>…</ETag>…</Part>`, in order. */
export function parseCompleteParts(xml: string): { number: number; etag: string }[] {
  if (!/<CompleteMultipartUpload[\s>][\s\S]*<\/CompleteMultipartUpload>\s*$/.test(xml)) throw S3Errors.malformedXml();
  return [...xml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map(([, part]) => {
    const number = /<PartNumber>\s*(\d+)\s*<\/PartNumber>/.exec(part!)?.[1];
    const etag = /<ETag>([\s\S]*?)<\/ETag>/.exec(part!)?.[1];
    if (!number || etag === undefined) throw S3Errors.malformedXml();
    return {
      number: Number(number),
      etag: etag
        .replace(/&quot;/g, '"')
        .replace(/&#34;/g, '"')
        .trim(),
    };
  });
}

/**
 * An S3-compatible store under /s3, speaking the REST API as the AWS SDKs use
 * it path-style: CreateBucket, HeadBucket, DeleteBucket, ListObjectsV2, ListMultipartUploads (one page),
 * PutObject, GetObject (with Range), HeadObject, DeleteObject and multipart
 * uploads (CreateMultipartUpload, UploadPart, CompleteMultipartUpload,
 * AbortMultipartUpload). Every request must carry a valid Signature Version
 * 4 of SIM_S3_CREDENTIALS, and bodies are checked against their signed hash
 * or checksum. Answers and errors are S3's XML (NoSuchBucket, NoSuchKey,
 * SignatureDoesNotMatch, …).
 */
export async function handleS3(req: IncomingMessage, res: ServerResponse, s3: SimS3, path: string): Promise<boolean> {
  if (path !== S3_PATH && !path.startsWith(`${S3_PATH}/`)) return false;
  const method = req.method ?? 'GET';
  const resource = path.slice(S3_PATH.length) || '/';
  try {
    const verified = verifyRequest(req, secretOf);
    if ('code' in verified) throw new S3Error(verified.status, verified.code, verified.message);
    await s3Operation(req, res, s3.store, resource, verified.payloadHash);
  } catch (error) {
    if (!(error instanceof S3Error)) throw error;
    sendS3Error(res, error, method, resource);
  }
  return true;
}

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new S3Error(400, 'InvalidURI', "Couldn't parse the specified URI.");
  }
}

async function s3Operation(req: IncomingMessage, res: ServerResponse, store: S3Store, resource: string, payloadHash: string) {
  const method = req.method ?? 'GET';
  const query = new URLSearchParams(req.url?.split('?')[1] ?? '');
  const slash = resource.indexOf('/', 1);
  const bucket = decodePath(slash < 0 ? resource.slice(1) : resource.slice(1, slash));
  const key = slash < 0 ? '' : decodePath(resource.slice(slash + 1));
  if (!bucket) throw S3Errors.notImplemented(); // ListBuckets

  if (!key) {
    if (method === 'PUT' && [...query.keys()].length === 0) {
      await drain(req, payloadHash);
      store.createBucket(bucket);
      return sendXml(res, 200, '', { location: `/${bucket}` });
    }
    await drain(req, payloadHash);
    if (method === 'HEAD') {
      store.bucket(bucket);
      return sendXml(res, 200, '');
    }
    if (method === 'DELETE' && [...query.keys()].length === 0) {
      store.deleteBucket(bucket);
      res.writeHead(204).end();
      return;
    }
    if (method === 'GET' && query.has('uploads')) {
      const prefix = query.get('prefix') ?? '';
      const uploads = store.openUploads(bucket).filter((upload) => upload.key.startsWith(prefix));
      return sendXml(
        res,
        200,
        xmlDocument('ListMultipartUploadsResult', {
          Bucket: bucket,
          KeyMarker: '',
          UploadIdMarker: '',
          Prefix: prefix,
          MaxUploads: 1000,
          IsTruncated: false,
          Upload: uploads.map((upload) => ({ Key: upload.key, UploadId: upload.uploadId, Initiated: upload.initiated.toISOString() })),
        }),
      );
    }
    if (method === 'GET' && query.get('list-type') === '2') return sendXml(res, 200, listObjectsV2(bucket, store.bucket(bucket), query));
    throw S3Errors.notImplemented();
  }

  const uploadId = query.get('uploadId');
  if (method === 'PUT' && req.headers['x-amz-copy-source']) throw S3Errors.notImplemented();
  if (method === 'PUT' && uploadId !== null) {
    const number = Number(query.get('partNumber'));
    if (!Number.isInteger(number) || number < 1 || number > 10000)
      throw S3Errors.invalidArgument('Part number must be an integer between 1 and 10000, inclusive');
    const upload = store.upload(bucket, key, uploadId);
    const part = await keepBody(store, req, payloadHash);
    await store.putPart(upload, number, part);
    return sendXml(res, 200, '', { etag: part.etag });
  }
  if (method === 'PUT') {
    store.bucket(bucket);
    const body = await keepBody(store, req, payloadHash);
    await store.put(bucket, key, {
      path: body.path,
      size: body.size,
      etag: body.etag,
      lastModified: new Date(),
      contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
      metadata: metadataOf(req),
    });
    return sendXml(res, 200, '', { etag: body.etag });
  }
  if (method === 'POST' && query.has('uploads')) {
    await drain(req, payloadHash);
    const id = store.createUpload(bucket, key, String(req.headers['content-type'] ?? 'application/octet-stream'), metadataOf(req));
    return sendXml(res, 200, xmlDocument('InitiateMultipartUploadResult', { Bucket: bucket, Key: key, UploadId: id }));
  }
  if (method === 'POST' && uploadId !== null) {
    const parts = parseCompleteParts((await drain(req, payloadHash)).toString('utf8'));
    const object = await store.complete(bucket, key, uploadId, parts);
    return sendXml(
      res,
      200,
      xmlDocument('CompleteMultipartUploadResult', {
        Location: `${S3_PATH}/${bucket}/${key}`,
        Bucket: bucket,
        Key: key,
        ETag: object.etag,
      }),
    );
  }
  await drain(req, payloadHash);
  if (method === 'DELETE' && uploadId !== null) {
    await store.abort(bucket, key, uploadId);
    res.writeHead(204).end();
    return;
  }
  if (method === 'DELETE') {
    await store.delete(bucket, key);
    res.writeHead(204).end();
    return;
  }
  if (method === 'GET' || method === 'HEAD') {
    const object = store.object(bucket, key);
    const range = parseRange(req.headers.range, object.size);
    const headers = objectHeaders(object);
    if (range) {
      res.writeHead(206, {
        ...headers,
        'content-length': range.end - range.start + 1,
        'content-range': `bytes ${range.start}-${range.end}/${object.size}`,
      });
    } else res.writeHead(200, { ...headers, 'content-length': object.size });
    if (method === 'HEAD' || object.size === 0) return void res.end();
    await pipeline(createReadStream(object.path, range ?? {}), res);
    return;
  }
  throw S3Errors.notImplemented();
}
