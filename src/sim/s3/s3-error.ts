import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** An S3 error as the REST API answers it: a status, a code of S3's list (NoSuchKey, NoSuchBucket, …), a message. */
export class S3Error extends Error {
  override readonly name = 'S3Error';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Further elements of the <Error> document (Key, BucketName, UploadId, …). */
    readonly details: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const S3Errors = {
  noSuchBucket: (bucket: string) => new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: bucket }),
  noSuchKey: (key: string) => new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key }),
  noSuchUpload: (uploadId: string) =>
    new S3Error(
      404,
      'NoSuchUpload',
      'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      { UploadId: uploadId },
    ),
  invalidArgument: (message: string) => new S3Error(400, 'InvalidArgument', message),
  malformedXml: () =>
    new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.'),
  notImplemented: () => new S3Error(501, 'NotImplemented', 'A header you provided implies functionality that is not implemented.'),
};

export const xmlEscape = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** An element per entry, in order; arrays repeat their element, objects nest. */
export function xmlElements(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) =>
      Array.isArray(value)
        ? value.map((item) => xmlElements({ [name]: item })).join('')
        : typeof value === 'object' && value !== null
          ? `<${name}>${xmlElements(value as Record<string, unknown>)}</${name}>`
          : `<${name}>${xmlEscape(String(value))}</${name}>`,
    )
    .join('');
}

/** A document of S3's namespace with one root element. */
export const xmlDocument = (root: string, fields: Record<string, unknown>): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${xmlElements(fields)}</${root}>`;

export function sendXml(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body), ...requestIds(), ...headers });
  res.end(body);
}

const requestIds = () => ({
  'x-amz-request-id': randomBytes(8).toString('hex').toUpperCase(),
  'x-amz-id-2': randomBytes(24).toString('base64'),
});

/** An error as S3 answers it: an <Error> document (no namespace), or no body to a HEAD. */
export function sendS3Error(res: ServerResponse, error: S3Error, method: string, resource: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const ids = requestIds();
  if (method === 'HEAD') {
    res.writeHead(error.status, ids);
    res.end();
    return;
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${xmlElements({
    Code: error.code,
    Message: error.message,
    ...error.details,
    Resource: resource,
    RequestId: ids['x-amz-request-id'],
    HostId: ids['x-amz-id-2'],
  })}</Error>`;
  // The client may still be sending a body S3 will not read: close the connection after the answer rather than drain it.
  res.writeHead(error.status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
    ...ids,
  });
  res.end(body);
}
