import { S3Errors, xmlDocument } from './s3-error.js';
import type { S3Object } from './s3-store.js';

/**
 * ListObjectsV2 over a bucket's objects: keys in ascending order after
 * `start-after` or the `continuation-token`, under `prefix`, rolled up into
 * CommonPrefixes at `delimiter`, `max-keys` (1000 at most) entries a page.
 */
export function listObjectsV2(name: string, objects: Map<string, S3Object>, query: URLSearchParams): string {
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const maxKeysText = query.get('max-keys');
  const maxKeys = maxKeysText === null ? 1000 : Number(maxKeysText);
  if (!Number.isInteger(maxKeys) || maxKeys < 0) throw S3Errors.invalidArgument('Provided max-keys not an integer or within integer range');
  const token = query.get('continuation-token');
  let after = query.get('start-after') ?? '';
  if (token !== null) {
    after = Buffer.from(token, 'base64url').toString('utf8');
    if (!after) throw S3Errors.invalidArgument('The continuation token provided is incorrect');
  }
  // A page that ended on a common prefix goes on past every key under it.
  const skipUnder = token !== null && delimiter && after.endsWith(delimiter) ? after : undefined;
  const url = query.get('encoding-type') === 'url';
  const show = (value: string) => (url ? encodeURIComponent(value).replace(/%2F/g, '/') : value);

  const contents: Record<string, unknown>[] = [];
  const prefixes: string[] = [];
  let last = '';
  let truncated = false;
  for (const key of [...objects.keys()].sort()) {
    if (!key.startsWith(prefix) || key <= after || (skipUnder !== undefined && key.startsWith(skipUnder))) continue;
    const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    const rolled = cut < 0 ? undefined : key.slice(0, cut + delimiter.length);
    if (rolled !== undefined && rolled === prefixes.at(-1)) continue;
    if (contents.length + prefixes.length >= maxKeys) {
      truncated = true;
      break;
    }
    if (rolled !== undefined) {
      prefixes.push(rolled);
      last = rolled;
    } else {
      const object = objects.get(key)!;
      contents.push({
        Key: show(key),
        LastModified: object.lastModified.toISOString(),
        ETag: object.etag,
        Size: object.size,
        StorageClass: 'STANDARD',
      });
      last = key;
    }
  }
  return xmlDocument('ListBucketResult', {
    Name: name,
    Prefix: show(prefix),
    Delimiter: delimiter ? show(delimiter) : undefined,
    MaxKeys: maxKeys,
    EncodingType: url ? 'url' : undefined,
    KeyCount: contents.length + prefixes.length,
    IsTruncated: truncated,
    ContinuationToken: token ?? undefined,
    NextContinuationToken: truncated ? Buffer.from(last, 'utf8').toString('base64url') : undefined,
    StartAfter: query.get('start-after') ? show(query.get('start-after')!) : undefined,
    Contents: contents,
    CommonPrefixes: prefixes.map((p) => ({ Prefix: show(p) })),
  });
}
