import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../../test/support/make-pdf.js';
import { publicAddressPolicy } from '../../net/address-policy.js';
import { fixedResolver } from '../../net/fixed-resolver.testing.js';
import { createSafeFetcher, type SafeFetcher } from '../../net/safe-fetch.js';
import { startTestUpstream, type TestUpstream } from '../../providers/shared/upstream-server.testing.js';
import { extractPdfText } from '../file-parser/extract-pdf-text.js';
import { loadTokenCounter } from '../shared/token-counter.js';
import { WebFetchTool, type WebFetchDependencies, type WebFetchPluginFields } from './web-fetch-tool.js';

const ARTICLE = '<html><head><title>Moon facts</title></head><body><h1>The Moon</h1><p>The Moon is 384,400 km away.</p></body></html>';

let site: TestUpstream;
let pdf: Uint8Array;
let port: string;
/** A fetcher that may reach the test server on loopback, by the names site.test and docs.site.test, and nothing else private. */
let local: SafeFetcher;
/** A fetcher with the default policy: public addresses only. */
let strict: SafeFetcher;

beforeAll(async () => {
  pdf = await makePdf(['Annual report: revenue grew 12 percent.']);
  site = await startTestUpstream((request, response) => {
    const routes: Record<string, () => void> = {
      '/article': () => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
      '/notes.txt': () => response.writeHead(200, { 'content-type': 'text/plain' }).end('plain notes'),
      '/report.pdf': () => response.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from(pdf)),
      '/long': () => response.writeHead(200, { 'content-type': 'text/plain' }).end('word '.repeat(5_000)),
      '/image.png': () => response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47])),
      '/missing': () => response.writeHead(404, { 'content-type': 'text/plain' }).end('no such page'),
      '/to-metadata': () => response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      '/to-docs': () => response.writeHead(302, { location: `http://docs.site.test:${port}/article` }).end(),
    };
    (routes[request.path] ?? (() => response.writeHead(404).end()))();
  });
  port = new URL(site.origin).port;
  const names = fixedResolver({ 'site.test': ['127.0.0.1'], 'docs.site.test': ['127.0.0.1'], 'evil.test': ['127.0.0.1'] });
  local = createSafeFetcher({ policy: publicAddressPolicy(['127.0.0.1/32']), resolve: names });
  strict = createSafeFetcher({ resolve: names });
});
afterAll(async () => {
  await Promise.all([local.close(), strict.close(), site.close()]);
});

const deps = (fetcher: SafeFetcher): WebFetchDependencies => ({
  fetcher,
  tokens: loadTokenCounter,
  pdfText: async (bytes) => (await extractPdfText(bytes)).text,
  maxBytes: 1_000_000,
  timeoutMs: 5_000,
});
const tool = (fields: WebFetchPluginFields = {}, fetcher = local) => new WebFetchTool(fields, deps(fetcher));
const args = (path: string, host = 'site.test') => JSON.stringify({ url: `http://${host}:${port}${path}` });
const parsed = (result: { content: string }) => JSON.parse(result.content);

describe('WebFetchTool', () => {
  it('returns an HTML page as its title and readable text', async () => {
    const result = await tool().call(args('/article'));
    expect(result.ok).toBe(true);
    expect(parsed(result)).toEqual({
      url: `http://site.test:${port}/article`,
      status: 200,
      title: 'Moon facts',
      content: 'The Moon\n\nThe Moon is 384,400 km away.',
      truncated: false,
    });
  });

  it('returns plain text as it is, and a PDF as its text', async () => {
    expect(parsed(await tool().call(args('/notes.txt'))).content).toBe('plain notes');
    expect(parsed(await tool().call(args('/report.pdf'))).content).toBe('Annual report: revenue grew 12 percent.');
  });

  it('reports the status of a page that is not there', async () => {
    expect(parsed(await tool().call(args('/missing')))).toMatchObject({ status: 404, content: 'no such page' });
  });

  it('cuts the content at max_content_tokens', async () => {
    const page = parsed(await tool({ max_content_tokens: 10 }).call(args('/long')));
    expect(page.truncated).toBe(true);
    expect((await loadTokenCounter()).count(page.content)).toBe(10);
  });

  it('refuses content that is not text', async () => {
    const result = await tool().call(args('/image.png'));
    expect(result.ok).toBe(false);
    expect(parsed(result).error).toBe('image/png content cannot be read as text');
  });

  it('answers an error after max_uses fetches, without fetching', async () => {
    const limited = tool({ max_uses: 1 });
    expect((await limited.call(args('/notes.txt'))).ok).toBe(true);
    const before = site.requests.length;
    const refused = await limited.call(args('/notes.txt'));
    expect(parsed(refused).error).toBe('web_fetch may be used at most 1 times in one request (max_uses)');
    expect(site.requests.length).toBe(before);
    expect(limited.uses).toBe(1);
  });

  it('applies allowed_domains and blocked_domains to the URL and to every redirect', async () => {
    expect(parsed(await tool({ allowed_domains: ['example.com'] }).call(args('/article'))).error).toBe(
      'site.test is not in the allowed domains (example.com)',
    );
    expect(parsed(await tool({ blocked_domains: ['docs.site.test'] }).call(args('/to-docs'))).error).toBe(
      'docs.site.test is blocked by the rule "docs.site.test"',
    );
    expect(parsed(await tool({ allowed_domains: ['site.test'] }).call(args('/to-docs'))).title).toBe('Moon facts');
  });

  it('never fetches a name that resolves to loopback, nor follows a redirect to the metadata address', async () => {
    const before = site.requests.length;
    const loopback = await tool({}, strict).call(args('/article', 'evil.test'));
    expect(parsed(loopback).error).toBe('evil.test resolves to a blocked address: 127.0.0.1 is a loopback address');
    expect(loopback.record).toMatchObject({ failure: 'blocked' });
    expect(site.requests.length).toBe(before);

    const redirected = await tool().call(args('/to-metadata'));
    expect(parsed(redirected).error).toBe('169.254.169.254 is blocked: 169.254.169.254 is a linkLocal address');
  });

  it('answers arguments without a URL with an error the model can read', async () => {
    expect(parsed(await tool().call('{"link":"x"}')).error).toBe('the arguments must be a JSON object with a "url" string');
    expect(parsed(await tool().call('not json')).error).toBe('the arguments must be a JSON object with a "url" string');
  });
});
