import { Readable } from 'node:stream';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { SafeFetcher } from './safe-fetch.js';

/** What the SDK hands a request handler (@smithy/protocol-http's HttpRequest), as far as it is read here. */
interface SdkRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function queryString(query: SdkRequest['query']): string {
  const pairs = Object.entries(query).flatMap(([name, value]) =>
    value === null ? [encode(name)] : (Array.isArray(value) ? value : [value]).map((v) => `${encode(name)}=${encode(v)}`),
  );
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

/**
 * An AWS SDK request handler that sends through the SSRF-safe fetcher, so a
 * workspace's S3 endpoint meets the same address policy
 * (network.allow_private_ranges), timeout and answer bound as every other
 * destination URL. Text bodies only (what the s3 destination puts); answers
 * are read up to `maxBytes`.
 */
export function safeFetchHandler(
  fetcher: SafeFetcher,
  bounds: { timeoutMs: number; maxBytes: number; signal?: AbortSignal },
): NonNullable<S3ClientConfig['requestHandler']> {
  const handler = {
    async handle(request: SdkRequest) {
      const { body } = request;
      if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
        throw new Error('the safe-fetch S3 handler sends text bodies only');
      const port = request.port ? `:${request.port}` : '';
      const url = `${request.protocol}//${request.hostname}${port}${request.path}${queryString(request.query)}`;
      // The fetcher sets Host from the URL, as the SDK signed it.
      const { host: _host, ...headers } = request.headers;
      const method = request.method as 'GET' | 'HEAD' | 'POST' | 'PUT';
      const answer = await fetcher.fetch(url, {
        method,
        headers,
        ...(body === undefined || body === null ? {} : { body: typeof body === 'string' ? body : Buffer.from(body).toString('utf8') }),
        timeoutMs: bounds.timeoutMs,
        maxBytes: bounds.maxBytes,
        maxRedirects: 0,
        ...(bounds.signal ? { signal: bounds.signal } : {}),
      });
      return { response: { statusCode: answer.status, headers: answer.headers, body: Readable.from([answer.body]) } };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
  };
  return handler as unknown as NonNullable<S3ClientConfig['requestHandler']>;
}
