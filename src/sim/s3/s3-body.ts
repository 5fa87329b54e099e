import { createHash, type Hash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { crc32 } from 'node:zlib';
import { S3Error } from './s3-error.js';
import { STREAMING_UNSIGNED_TRAILER, UNSIGNED_PAYLOAD } from './sigv4.js';

/** What a body turned out to be, once read to its end. */
export interface BodyFacts {
  size: number;
  md5: Buffer;
}

const incomplete = () =>
  new S3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.');
const malformedChunks = () => new S3Error(400, 'InvalidRequest', 'The chunked body is malformed.');

/**
 * An aws-chunked body (Content-Encoding: aws-chunked, the SDKs' streaming
 * uploads): `<hex size>[;chunk-signature=…]\r\n<data>\r\n` chunks, a 0-size
 * chunk, then trailing headers (`x-amz-checksum-crc32:…`) and an empty line.
 * Yields the data as it arrives; the trailers land in `trailers`.
 */
export async function* decodeAwsChunked(source: AsyncIterable<Buffer>, trailers: Record<string, string>): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  let left = 0;
  let state: 'size' | 'data' | 'crlf' | 'trailer' | 'done' = 'size';
  for await (const piece of source) {
    pending = pending.length > 0 ? Buffer.concat([pending, piece]) : piece;
    while (pending.length > 0) {
      if (state === 'data') {
        const take = Math.min(left, pending.length);
        yield pending.subarray(0, take);
        pending = pending.subarray(take);
        left -= take;
        if (left === 0) state = 'crlf';
        continue;
      }
      const eol = pending.indexOf('\r\n');
      if (eol < 0) {
        if (pending.length > 8192) throw malformedChunks();
        break;
      }
      const line = pending.subarray(0, eol).toString('latin1');
      pending = pending.subarray(eol + 2);
      if (state === 'crlf') {
        if (line !== '') throw malformedChunks();
        state = 'size';
      } else if (state === 'size') {
        const size = Number.parseInt(line.split(';', 1)[0]!, 16);
        if (!/^[0-9a-fA-F]+$/.test(line.split(';', 1)[0]!) || !Number.isSafeInteger(size)) throw malformedChunks();
        if (size === 0) state = 'trailer';
        else [left, state] = [size, 'data'];
      } else if (state === 'trailer') {
        if (line === '') state = 'done';
        else {
          const colon = line.indexOf(':');
          if (colon < 1) throw malformedChunks();
          trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
      } else throw malformedChunks();
    }
  }
  if (state !== 'done') throw incomplete();
}

/** The checksum algorithms of x-amz-checksum-*, as S3 computes them (base64 of the digest). */
interface Digest {
  update(data: Buffer): void;
  base64(): string;
}
function digestOf(algorithm: string): Digest | undefined {
  if (algorithm === 'crc32') {
    let value = 0;
    return {
      update: (data) => void (value = crc32(data, value)),
      base64: () => {
        const out = Buffer.alloc(4);
        out.writeUInt32BE(value >>> 0);
        return out.toString('base64');
      },
    };
  }
  if (algorithm === 'sha1' || algorithm === 'sha256') {
    const hash: Hash = createHash(algorithm);
    return { update: (data) => void hash.update(data), base64: () => hash.digest('base64') };
  }
  return undefined;
}

const CHECKSUM_HEADERS = ['crc32', 'crc32c', 'crc64nvme', 'sha1', 'sha256'].map((algorithm) => `x-amz-checksum-${algorithm}`);
const checksumHeader = (headers: IncomingMessage['headers']) => CHECKSUM_HEADERS.find((name) => headers[name] !== undefined);

/**
 * The request's body as S3 reads it, chunk by chunk (never whole): decoded
 * from aws-chunked when so encoded, and checked as it ends against what the
 * request promised: the signed SHA-256 (XAmzContentSHA256Mismatch), a
 * Content-MD5 or an x-amz-checksum-* header or trailer (BadDigest), the
 * declared length (IncompleteBody). `facts` is filled in at the end.
 */
export async function* readS3Body(req: IncomingMessage, payloadHash: string, facts: BodyFacts): AsyncGenerator<Buffer> {
  const headers = req.headers;
  const chunked = String(headers['content-encoding'] ?? '')
    .split(',')
    .some((v) => v.trim() === 'aws-chunked');
  if (payloadHash.startsWith('STREAMING-') && payloadHash !== STREAMING_UNSIGNED_TRAILER)
    throw new S3Error(501, 'NotImplemented', `This server does not take ${payloadHash} bodies; sign with UNSIGNED-PAYLOAD or a SHA-256.`);
  if ((payloadHash === STREAMING_UNSIGNED_TRAILER) !== chunked) throw malformedChunks();
  const trailers: Record<string, string> = {};
  const trailer = String(headers['x-amz-trailer'] ?? '').toLowerCase();
  const named = chunked ? trailer || undefined : checksumHeader(headers);
  const algorithm = named?.slice('x-amz-checksum-'.length);
  const checksum = algorithm ? digestOf(algorithm) : undefined;
  if (algorithm && !checksum) throw new S3Error(400, 'InvalidRequest', `The checksum algorithm ${algorithm} is not supported here.`);
  const sha256 = payloadHash === UNSIGNED_PAYLOAD || chunked ? undefined : createHash('sha256');
  const md5 = createHash('md5');
  let size = 0;
  const source = chunked ? decodeAwsChunked(req, trailers) : (req as AsyncIterable<Buffer>);
  for await (const piece of source) {
    size += piece.length;
    md5.update(piece);
    sha256?.update(piece);
    checksum?.update(piece);
    yield piece;
  }
  const declared = chunked ? headers['x-amz-decoded-content-length'] : headers['content-length'];
  if (declared !== undefined && Number(declared) !== size) throw incomplete();
  if (sha256 && sha256.digest('hex') !== payloadHash)
    throw new S3Error(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
  facts.md5 = md5.digest();
  const contentMd5 = headers['content-md5'];
  if (contentMd5 !== undefined && contentMd5 !== facts.md5.toString('base64'))
    throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
  if (named && checksum) {
    const sent = chunked ? trailers[named] : String(headers[named]);
    if (sent !== checksum.base64())
      throw new S3Error(400, 'BadDigest', `The ${algorithm!.toUpperCase()} you specified did not match the calculated checksum.`);
  }
  facts.size = size;
}
