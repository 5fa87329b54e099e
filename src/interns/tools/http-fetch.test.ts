import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicAddressPolicy } from '../../net/address-policy.js';
import { createSafeFetcher } from '../../net/safe-fetch.js';
import { httpFetchTool, internDomainRefusal } from './http-fetch.js';
import { ToolError } from './intern-tool.js';
import { recordingServer } from './tools.testing.js';

const signal = new AbortController().signal;

describe('internDomainRefusal', () => {
  it('allows the listed hosts and their subdomains only', () => {
    expect(internDomainRefusal(new URL('https://docs.example.com/x'), ['example.com'])).toBeUndefined();
    expect(internDomainRefusal(new URL('https://example.org/'), ['example.com'])).toMatch(/not in this intern's allowed domains/);
    expect(internDomainRefusal(new URL('https://example.com/'), [])).toMatch(/allowed_domains is empty/);
  });
});

describe('http_fetch', () => {
  let server: Awaited<ReturnType<typeof recordingServer>>;
  const opened = createSafeFetcher({ policy: publicAddressPolicy(['127.0.0.0/8']) });
  const closed = createSafeFetcher();
  beforeAll(async () => {
    server = await recordingServer((req, res) => {
      if (req.url === '/big') res.end('x'.repeat(5000));
      else if (req.url === '/away') res.writeHead(302, { location: 'http://localhost.invalid/' }).end();
      else res.end(`hello ${req.headers.authorization ?? ''}`);
    });
  });
  afterAll(async () => {
    await server.close();
    await opened.close();
    await closed.close();
  });

  it('fetches an allowed URL and reports status and body', async () => {
    const tool = httpFetchTool(opened, ['127.0.0.1']);
    const text = await tool.run({ url: `${server.url}/page`, headers: { authorization: 'Bearer s3cret' } }, signal);
    expect(text).toMatch(/^HTTP 200 from http:\/\/127\.0\.0\.1:\d+\/page/);
    expect(text).toContain('hello Bearer s3cret');
  });

  it('refuses a domain outside the allowlist without connecting', async () => {
    const before = server.received.length;
    const tool = httpFetchTool(opened, ['example.com']);
    await expect(tool.run({ url: `${server.url}/page` }, signal)).rejects.toThrow(ToolError);
    expect(server.received.length).toBe(before);
  });

  it('refuses loopback addresses unless the operator opened the range, even when the domain is allowed', async () => {
    const tool = httpFetchTool(closed, ['127.0.0.1']);
    await expect(tool.run({ url: `${server.url}/page` }, signal)).rejects.toThrow(/blocked/);
  });

  it('judges redirect targets by the allowlist too', async () => {
    const tool = httpFetchTool(opened, ['127.0.0.1']);
    await expect(tool.run({ url: `${server.url}/away` }, signal)).rejects.toThrow(/not in this intern's allowed domains/);
  });

  it('cuts large bodies at the size limit', async () => {
    const tool = httpFetchTool(opened, ['127.0.0.1'], { maxBytes: 1000, timeoutMs: 5000, maxResultChars: 100 });
    const text = await tool.run({ url: `${server.url}/big` }, signal);
    expect(text).toContain('body cut at 1000 bytes');
    expect(text).toContain('[cut at 100 characters]');
  });

  it('names a bad argument', async () => {
    await expect(httpFetchTool(opened, ['127.0.0.1']).run({ url: 42 }, signal)).rejects.toThrow(
      'argument "url" must be a non-empty string',
    );
  });
});
