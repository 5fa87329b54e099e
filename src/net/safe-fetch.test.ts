import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicAddressPolicy } from './address-policy.js';
import { fixedResolver as resolver } from './fixed-resolver.testing.js';
import { createSafeFetcher, SafeFetchError, type SafeFetchRequest } from './safe-fetch.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(handler: Handler): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const LIMITS: SafeFetchRequest = { timeoutMs: 2_000, maxBytes: 64 * 1024 };

async function failureOf(promise: Promise<unknown>): Promise<SafeFetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SafeFetchError);
  return error as SafeFetchError;
}

describe('createSafeFetcher', () => {
  let site: { server: Server; origin: string };
  let other: { server: Server; origin: string };
  const hits: string[] = [];

  beforeAll(async () => {
    other = await listen((req, res) => res.end(JSON.stringify({ headers: req.headers })));
    site = await listen((req, res) => {
      hits.push(req.url ?? '');
      const port = (site.server.address() as AddressInfo).port;
      const routes: Record<string, () => void> = {
        '/hello': () => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'),
        '/echo': () => res.end(JSON.stringify({ method: req.method, headers: req.headers })),
        '/big': () => res.end('x'.repeat(10_000)),
        '/hang': () => undefined,
        '/to-hello': () => res.writeHead(302, { location: '/hello' }).end(),
        '/to-metadata': () => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
        '/to-metadata-name': () => res.writeHead(301, { location: `http://metadata.test:${port}/` }).end(),
        '/to-other': () => res.writeHead(307, { location: `${other.origin}/` }).end(),
        '/post-303': () => res.writeHead(303, { location: '/echo' }).end(),
        '/post-307': () => res.writeHead(307, { location: '/echo' }).end(),
        '/loop': () => res.writeHead(302, { location: '/loop' }).end(),
        '/to-file': () => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
      };
      (routes[req.url ?? ''] ?? (() => res.writeHead(404).end()))();
    });
  });
  afterAll(async () => {
    site.server.closeAllConnections();
    other.server.closeAllConnections();
    await Promise.all([new Promise((r) => site.server.close(r)), new Promise((r) => other.server.close(r))]);
  });

  // The test servers are on loopback, so these fetchers open exactly 127.0.0.1 on purpose.
  const local = () =>
    createSafeFetcher({
      policy: publicAddressPolicy(['127.0.0.1/32']),
      resolve: resolver({ 'site.test': ['127.0.0.1'], 'metadata.test': ['169.254.169.254'] }),
    });

  it('fetches, following a redirect on the same origin', async () => {
    const fetcher = local();
    const result = await fetcher.fetch(`${site.origin}/to-hello`, LIMITS);
    expect(result).toMatchObject({ status: 200, url: `${site.origin}/hello`, truncated: false, redirects: [`${site.origin}/to-hello`] });
    expect(result.body.toString()).toBe('hello');
    expect(result.headers['content-type']).toBe('text/plain');
    await fetcher.close();
  });

  it('refuses a name that resolves to loopback, before any byte is sent', async () => {
    const fetcher = createSafeFetcher({ resolve: resolver({ 'evil.test': ['127.0.0.1'] }) });
    const port = new URL(site.origin).port;
    hits.length = 0;
    const error = await failureOf(fetcher.fetch(`http://evil.test:${port}/hello`, LIMITS));
    expect(error.failure).toBe('blocked');
    expect(error.message).toBe('evil.test resolves to a blocked address: 127.0.0.1 is a loopback address');
    expect(hits).toEqual([]);
    await fetcher.close();
  });

  it('refuses a name whose answer mixes a public and a private address', async () => {
    const fetcher = createSafeFetcher({ resolve: resolver({ 'mixed.test': ['93.184.216.34', '10.0.0.5'] }) });
    const error = await failureOf(fetcher.fetch('http://mixed.test/', LIMITS));
    expect(error).toMatchObject({ failure: 'blocked', message: 'mixed.test resolves to a blocked address: 10.0.0.5 is a private address' });
    await fetcher.close();
  });

  it.each([
    ['http://127.0.0.1/', '127.0.0.1 is a loopback address'],
    ['http://2130706433/', '127.0.0.1 is a loopback address'],
    ['http://[::1]/', '::1 is a loopback address'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1 is a loopback address'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a linkLocal address'],
  ])('refuses the literal address in %s without connecting', async (url, reason) => {
    const fetcher = createSafeFetcher();
    const error = await failureOf(fetcher.fetch(url, LIMITS));
    expect(error.failure).toBe('blocked');
    expect(error.message).toContain(reason);
    await fetcher.close();
  });

  it('refuses a redirect to the metadata address, by literal IP and by name', async () => {
    const fetcher = local();
    expect(await failureOf(fetcher.fetch(`${site.origin}/to-metadata`, LIMITS))).toMatchObject({
      failure: 'blocked',
      message: '169.254.169.254 is blocked: 169.254.169.254 is a linkLocal address',
    });
    expect(await failureOf(fetcher.fetch(`${site.origin}/to-metadata-name`, LIMITS))).toMatchObject({
      failure: 'blocked',
      message: 'metadata.test resolves to a blocked address: 169.254.169.254 is a linkLocal address',
    });
    await fetcher.close();
  });

  it('applies the caller’s URL rule to every redirect target', async () => {
    const fetcher = local();
    const checkUrl = (url: URL) => (url.pathname === '/hello' ? 'hello is not allowed' : undefined);
    expect(await failureOf(fetcher.fetch(`${site.origin}/to-hello`, { ...LIMITS, checkUrl }))).toMatchObject({
      failure: 'blocked',
      message: 'hello is not allowed',
    });
    await fetcher.close();
  });

  it('drops the caller’s headers on a cross-origin redirect and keeps them on the same origin', async () => {
    const fetcher = local();
    const secret = { authorization: 'Bearer secret-token' };
    const same = JSON.parse((await fetcher.fetch(`${site.origin}/echo`, { ...LIMITS, headers: secret })).body.toString());
    expect(same.headers.authorization).toBe('Bearer secret-token');
    const cross = JSON.parse((await fetcher.fetch(`${site.origin}/to-other`, { ...LIMITS, headers: secret })).body.toString());
    expect(cross.headers.authorization).toBeUndefined();
    await fetcher.close();
  });

  it('turns a POST into a GET on 303 and keeps it on 307', async () => {
    const fetcher = local();
    const post = { ...LIMITS, method: 'POST' as const, body: '{}', headers: { 'content-type': 'application/json' } };
    expect(JSON.parse((await fetcher.fetch(`${site.origin}/post-303`, post)).body.toString()).method).toBe('GET');
    expect(JSON.parse((await fetcher.fetch(`${site.origin}/post-307`, post)).body.toString()).method).toBe('POST');
    await fetcher.close();
  });

  it('stops after too many redirects', async () => {
    const fetcher = local();
    expect(await failureOf(fetcher.fetch(`${site.origin}/loop`, { ...LIMITS, maxRedirects: 3 }))).toMatchObject({
      failure: 'too_many_redirects',
      message: 'more than 3 redirects',
    });
    await fetcher.close();
  });

  it('refuses URLs that are not http(s), including as a redirect target', async () => {
    const fetcher = local();
    expect(await failureOf(fetcher.fetch('file:///etc/passwd', LIMITS))).toMatchObject({
      failure: 'invalid_url',
      message: 'file: URLs are not fetched',
    });
    expect(await failureOf(fetcher.fetch(`${site.origin}/to-file`, LIMITS))).toMatchObject({ failure: 'invalid_url' });
    expect(await failureOf(fetcher.fetch('not a url', LIMITS))).toMatchObject({
      failure: 'invalid_url',
      message: 'not a url is not a URL',
    });
    expect(await failureOf(fetcher.fetch(`http://user:pw@site.test/`, LIMITS))).toMatchObject({ failure: 'invalid_url' });
    await fetcher.close();
  });

  it('cuts the body at maxBytes', async () => {
    const fetcher = local();
    const result = await fetcher.fetch(`${site.origin}/big`, { ...LIMITS, maxBytes: 1_000 });
    expect(result.truncated).toBe(true);
    expect(result.body.length).toBe(1_000);
    await fetcher.close();
  });

  it('gives up at the deadline', async () => {
    const fetcher = local();
    expect(await failureOf(fetcher.fetch(`${site.origin}/hang`, { ...LIMITS, timeoutMs: 150 }))).toMatchObject({
      failure: 'timeout',
      message: 'no complete answer within 150 ms',
    });
    await fetcher.close();
  });

  it('reports a name that does not resolve as a connection failure', async () => {
    const fetcher = local();
    expect(await failureOf(fetcher.fetch('http://nowhere.test/', LIMITS))).toMatchObject({ failure: 'connection' });
    await fetcher.close();
  });
});
