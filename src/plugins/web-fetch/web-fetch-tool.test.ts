import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../../../test/support/make-pdf.js';
import { publicAddressPolicy } from '../../net/address-policy.js';
import { fixedResolver } from '../../net/fixed-resolver.testing.js';
import { createSafeFetcher, type SafeFetcher } from '../../net/safe-fetch.js';
import { startTestUpstream, type TestUpstream } from '../../providers/shared/upstream-server.testing.js';
import { extractPdfText } from '../file-parser/extract-pdf-text.js';
import { PdfTextCache } from '../file-parser/pdf-text-cache.js';
import { noInnerCalls } from '../server-tools/no-inner-calls.testing.js';
import { loadTokenCounter } from '../shared/token-counter.js';
import { WEB_FETCH_FUNCTION, type WebFetchPluginFields, webFetchServerTool } from './web-fetch-tool.js';

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

const signal = new AbortController().signal;
const services = (fetcher: SafeFetcher) => ({ fetcher, tokens: loadTokenCounter, pdfText: new PdfTextCache(extractPdfText) });

/** One call of the tool: the page it returns, or the error the model would read. */
async function fetchFor(
  args: unknown,
  fields: WebFetchPluginFields = {},
  options: { fetcher?: SafeFetcher; calls?: number } = {},
): Promise<any> {
  const tool = webFetchServerTool(services(options.fetcher ?? local));
  try {
    return JSON.parse(
      (
        await tool.execute(args, {
          config: { id: 'web-fetch', ...fields },
          signal,
          calls: options.calls ?? 0,
          model: 'm',
          inner: noInnerCalls,
          state: new Map(),
        })
      ).content,
    );
  } catch (error) {
    return { error: (error as Error).message };
  }
}
const at = (path: string, host = 'site.test') => ({ url: `http://${host}:${port}${path}` });

describe('webFetchServerTool', () => {
  it('offers web_fetch for the web-fetch plugin', () => {
    const tool = webFetchServerTool(services(local));
    expect(tool).toMatchObject({ name: 'web_fetch', plugin: 'web-fetch' });
    expect(tool.definition({ id: 'web-fetch' })).toBe(WEB_FETCH_FUNCTION);
  });

  it('returns an HTML page as its title and readable text', async () => {
    expect(await fetchFor(at('/article'))).toEqual({
      url: `http://site.test:${port}/article`,
      status: 200,
      title: 'Moon facts',
      content: 'The Moon\n\nThe Moon is 384,400 km away.',
      truncated: false,
    });
  });

  it('returns plain text as it is, and a PDF as its text', async () => {
    expect((await fetchFor(at('/notes.txt'))).content).toBe('plain notes');
    expect((await fetchFor(at('/report.pdf'))).content).toBe('Annual report: revenue grew 12 percent.');
  });

  it('reports the status of a page that is not there', async () => {
    expect(await fetchFor(at('/missing'))).toMatchObject({ status: 404, content: 'no such page' });
  });

  it('cuts the content at max_content_tokens', async () => {
    const page = await fetchFor(at('/long'), { max_content_tokens: 10 });
    expect(page.truncated).toBe(true);
    expect((await loadTokenCounter()).count(page.content)).toBe(10);
  });

  it('refuses content that is not text', async () => {
    expect(await fetchFor(at('/image.png'))).toEqual({ error: 'image/png content cannot be read as text' });
  });

  it('refuses a call past max_uses without fetching (default 10)', async () => {
    const before = site.requests.length;
    expect(await fetchFor(at('/notes.txt'), { max_uses: 1 }, { calls: 1 })).toEqual({
      error: 'web_fetch may be used at most 1 times in one request (max_uses)',
    });
    expect(await fetchFor(at('/notes.txt'), {}, { calls: 10 })).toEqual({
      error: 'web_fetch may be used at most 10 times in one request (max_uses)',
    });
    expect(site.requests.length).toBe(before);
    expect((await fetchFor(at('/notes.txt'), { max_uses: 2 }, { calls: 1 })).content).toBe('plain notes');
  });

  it('applies allowed_domains and blocked_domains to the URL and to every redirect', async () => {
    expect(await fetchFor(at('/article'), { allowed_domains: ['example.com'] })).toEqual({
      error: 'site.test is not in the allowed domains (example.com)',
    });
    expect(await fetchFor(at('/to-docs'), { blocked_domains: ['docs.site.test'] })).toEqual({
      error: 'docs.site.test is blocked by the rule "docs.site.test"',
    });
    expect((await fetchFor(at('/to-docs'), { allowed_domains: ['site.test'] })).title).toBe('Moon facts');
  });

  it('never fetches a name that resolves to loopback, nor follows a redirect to the metadata address', async () => {
    const before = site.requests.length;
    expect(await fetchFor(at('/article', 'evil.test'), {}, { fetcher: strict })).toEqual({
      error: 'evil.test resolves to a blocked address: 127.0.0.1 is a loopback address',
    });
    expect(site.requests.length).toBe(before);
    expect(await fetchFor(at('/to-metadata'))).toEqual({ error: '169.254.169.254 is blocked: 169.254.169.254 is a linkLocal address' });
  });

  it('answers arguments without a URL with an error the model can read', async () => {
    expect(await fetchFor({ link: 'x' })).toEqual({ error: 'the arguments must be a JSON object with a "url" string' });
    expect(await fetchFor('not an object')).toEqual({ error: 'the arguments must be a JSON object with a "url" string' });
  });
});
