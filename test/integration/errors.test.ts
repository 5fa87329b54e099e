import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

describe('error envelope', () => {
  let gw: RunningGateway;

  beforeAll(async () => {
    gw = await startGateway(testEngines[0]!, {
      configure: (app) =>
        app.get('/api/v1/__boom', async () => {
          throw new Error('secret internals at /srv/app.ts:12');
        }),
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers unknown routes with 404 in the envelope', async () => {
    const res = await call(gw, 'GET', '/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: 'Route GET /api/v1/nowhere not found' } });
    expect(res.headers.get('x-error-code')).toBe('GW_ERR_ROUTE_NOT_FOUND');
  });

  it('answers malformed JSON with 400', async () => {
    const res = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: '{"name":' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 400, message: 'Malformed JSON body: the body is not valid JSON' });
    expect(res.headers.get('x-error-code')).toBe('GW_ERR_MALFORMED_JSON');
  });

  it('answers a body over the size limit with 413', async () => {
    const res = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) }) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe(413);
    expect(res.body.error.message).toMatch(/exceeds the \d+-byte limit/);
    expect(res.headers.get('x-error-code')).toBe('GW_ERR_BODY_TOO_LARGE');
  });

  it('answers a content type the route does not take with 415 naming the one it takes', async () => {
    const post = async (path: string, body: string, type: string) => {
      const res = await fetch(`${gw.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${gw.managementKey}`, 'content-type': type },
        body,
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as { error: { message: string } } };
    };
    const res = await post('/keys', 'name=x', 'text/plain');
    expect(res.status).toBe(415);
    expect(res.headers.get('x-error-code')).toBe('GW_ERR_UNSUPPORTED_MEDIA_TYPE');
    expect(res.body).toEqual({
      error: { code: 415, message: 'Unsupported Media Type: the body must be application/json, not text/plain' },
    });
    // The upload routes take multipart/form-data, and say so.
    for (const path of ['/audio/transcriptions', '/images/edits']) {
      const upload = await post(path, 'name=x', 'application/x-www-form-urlencoded');
      expect(upload.status, path).toBe(415);
      expect(upload.body.error.message, path).toMatch(/^Unsupported Media Type: the body must be multipart\/form-data/);
    }
    const json = await post('/images/edits', '{"model":"sim/image"}', 'application/json');
    expect(json.status).toBe(415);
    expect(json.body.error.message).toBe(
      'Unsupported Media Type: the body must be multipart/form-data, as OpenAI’s images.edit sends it, not application/json',
    );
  });

  it('answers an unexpected fault with 500, a request id and no internals', async () => {
    const res = await call(gw, 'GET', '/__boom', { headers: { 'x-request-id': 'trace-123' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: 500, message: 'Internal Server Error' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    expect(res.headers.get('x-error-code')).toBe('GW_ERR_INTERNAL');
  });

  it('names the catalogue entry of a validation error and of an authentication error', async () => {
    const invalid = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 5 } });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('x-error-code')).toBe('GW_ERR_INVALID_REQUEST');
    const missing = await call(gw, 'GET', '/key');
    expect([missing.status, missing.headers.get('x-error-code')]).toEqual([401, 'GW_ERR_MISSING_AUTHENTICATION']);
  });

  it('gives every response a request id', async () => {
    const res = await call(gw, 'GET', '/key', { key: gw.managementKey });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });
});
