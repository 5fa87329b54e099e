import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Payload hashes that stand for a body not hashed up front (the S3 SigV4 documentation's x-amz-content-sha256 values). */
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
export const STREAMING_UNSIGNED_TRAILER = 'STREAMING-UNSIGNED-PAYLOAD-TRAILER';

/** Why a request's signature is refused: an S3 error code and its message. */
export interface SignatureProblem {
  status: number;
  code: string;
  message: string;
}

export interface VerifiedRequest {
  accessKeyId: string;
  /** x-amz-content-sha256: a hex SHA-256 of the body, UNSIGNED-PAYLOAD or a STREAMING-… value. */
  payloadHash: string;
}

/** Requests signed more than this far from the server's clock are refused, as S3 does (RequestTimeTooSkewed). */
const MAX_SKEW_MS = 15 * 60 * 1000;

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

/** RFC 3986 encoding as SigV4 wants it: every byte but the unreserved characters. */
const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The query string in SigV4's canonical form: each name and value decoded and re-encoded, sorted by name then value. */
export function canonicalQuery(rawQuery: string): string {
  if (!rawQuery) return '';
  return rawQuery
    .split('&')
    .filter((pair) => pair.length > 0)
    .map((pair) => {
      const at = pair.indexOf('=');
      const name = at < 0 ? pair : pair.slice(0, at);
      const value = at < 0 ? '' : pair.slice(at + 1);
      const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, '%20'));
      return [encode(decode(name)), encode(decode(value))] as const;
    })
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');

/** The signing key of a day, region and service. */
export const signingKey = (secret: string, date: string, region: string, service: string): Buffer =>
  hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');

/**
 * The signature a request should carry (AWS Signature Version 4, header
 * form): the canonical request (method, the path as sent, the canonical
 * query, the signed headers' trimmed values, the payload hash) hashed into
 * the string to sign, signed with the day's key. S3 signs the path as the
 * client encoded it, without normalizing it.
 */
export function expectedSignature(input: {
  method: string;
  rawPath: string;
  rawQuery: string;
  headers: IncomingHttpHeaders;
  signedHeaders: string[];
  payloadHash: string;
  amzDate: string;
  scope: { date: string; region: string; service: string };
  secret: string;
}): string {
  const canonicalHeaders = input.signedHeaders
    .map((name) => {
      const value = input.headers[name];
      const joined = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${joined.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [
    input.method,
    input.rawPath,
    canonicalQuery(input.rawQuery),
    canonicalHeaders,
    input.signedHeaders.join(';'),
    input.payloadHash,
  ].join('\n');
  const { date, region, service } = input.scope;
  const stringToSign = ['AWS4-HMAC-SHA256', input.amzDate, `${date}/${region}/${service}/aws4_request`, sha256Hex(canonicalRequest)].join(
    '\n',
  );
  return createHmac('sha256', signingKey(input.secret, date, region, service))
    .update(stringToSign, 'utf8')
    .digest('hex');
}

const problem = (status: number, code: string, message: string): SignatureProblem => ({ status, code, message });

/**
 * Checks a request's Authorization header against the secret of its access
 * key; the payload hash it names is checked against the body as the body is
 * read (see s3-body.ts).
 */
export function verifyRequest(
  req: { method?: string; url?: string; headers: IncomingHttpHeaders },
  secretOf: (accessKeyId: string) => string | undefined,
  now = Date.now(),
): VerifiedRequest | SignatureProblem {
  const auth = req.headers.authorization;
  if (!auth) return problem(403, 'AccessDenied', 'Access Denied');
  const match = AUTH.exec(auth);
  if (!match) return problem(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  const [, accessKeyId, date, region, service, signed, signature] = match as unknown as string[];
  const secret = secretOf(accessKeyId!);
  if (secret === undefined) return problem(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const time = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!time || !amzDate.startsWith(date!))
    return problem(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  const at = Date.UTC(+time[1]!, +time[2]! - 1, +time[3]!, +time[4]!, +time[5]!, +time[6]!);
  if (Math.abs(at - now) > MAX_SKEW_MS)
    return problem(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
  const payloadHash = req.headers['x-amz-content-sha256'];
  if (typeof payloadHash !== 'string')
    return problem(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  const signedHeaders = signed!.split(';');
  if (!signedHeaders.includes('host')) return problem(400, 'AuthorizationHeaderMalformed', 'The host header must be signed.');
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const expected = expectedSignature({
    method: req.method ?? 'GET',
    rawPath: q < 0 ? url : url.slice(0, q),
    rawQuery: q < 0 ? '' : url.slice(q + 1),
    headers: req.headers,
    signedHeaders,
    payloadHash,
    amzDate,
    scope: { date: date!, region: region!, service: service! },
    secret,
  });
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature!)))
    return problem(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  return { accessKeyId: accessKeyId!, payloadHash };
}
