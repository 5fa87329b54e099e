import { describe, expect, it } from 'vitest';
import { midStreamError, upstreamStatusError } from './upstream-status-error.js';

const parser = (body: unknown) => (typeof body === 'object' && body !== null ? { message: 'parsed', code: 'some_code' } : {});

describe('upstreamStatusError', () => {
  it('carries status, parsed JSON body, provider code and retry hint', () => {
    const error = upstreamStatusError(429, { 'retry-after': '3' }, { text: '{"error":{}}', cut: false }, parser);
    expect(error.failure).toBe('status');
    expect(error.message).toBe('upstream answered 429: parsed');
    expect(error.details).toEqual({ status: 429, retryAfterMs: 3000, body: { error: {} }, providerCode: 'some_code' });
  });

  it('keeps a non-JSON body as text', () => {
    const error = upstreamStatusError(502, {}, { text: '<html>Bad Gateway</html>', cut: false }, parser);
    expect(error.message).toBe('upstream answered 502');
    expect(error.details).toEqual({ status: 502, retryAfterMs: undefined, body: '<html>Bad Gateway</html>', providerCode: undefined });
  });

  it('leaves the body out when there is none', () => {
    expect(upstreamStatusError(503, {}, { text: '', cut: false }, parser).details.body).toBeUndefined();
  });

  it("prefers the body's own retry hint (Google's RetryInfo) over Retry-After", () => {
    const hinting = () => ({ retryAfterMs: 34_400 });
    expect(upstreamStatusError(429, { 'retry-after': '3' }, { text: '{}', cut: false }, hinting).details.retryAfterMs).toBe(34_400);
  });
});

describe('midStreamError', () => {
  it('is a status failure without a status, carrying the body, code and retry hint', () => {
    const error = midStreamError({ error: {} }, () => ({ message: 'overloaded', code: 'UNAVAILABLE', retryAfterMs: 500 }));
    expect(error.failure).toBe('status');
    expect(error.message).toBe('upstream failed mid-stream: overloaded');
    expect(error.details).toStrictEqual({ body: { error: {} }, providerCode: 'UNAVAILABLE', retryAfterMs: 500 });
  });
});
