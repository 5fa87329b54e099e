import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZATION_CODE_TTL_MS } from '../../src/api/auth/routes.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';

const verifier = (seed: string) => createHash('sha256').update(seed).digest('base64url') + 'A'.repeat(4);
const s256 = (v: string) => createHash('sha256').update(v).digest('base64url');

describe.each(testEngines)('PKCE authorization codes on $name', (engine) => {
  const time = testClock();
  let gw: RunningGateway;
  let userKey: string;

  beforeAll(async () => {
    gw = await startGateway(engine, { clock: time.clock });
    userKey = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'App user' } })).body.key;
  });
  afterAll(async () => {
    await gw.close();
  });

  const createCode = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(gw, 'POST', '/auth/keys/code', { key: userKey, body: { callback_url: 'https://app.example/cb', ...body }, headers });
  const exchange = (body: Record<string, unknown>) => call(gw, 'POST', '/auth/keys', { body });

  it('runs the whole S256 flow: code, exchange, a key that works and carries label, limit and expiry', async () => {
    const v = verifier('flow');
    const created = await createCode(
      {
        code_challenge: s256(v),
        code_challenge_method: 'S256',
        limit: 25,
        usage_limit_type: 'weekly',
        key_label: 'CLI',
        expires_at: '2030-06-01T00:00:00Z',
      },
      { 'HTTP-Referer': 'https://app.example/', 'X-OpenRouter-Title': 'Example App' },
    );
    expect(created.status).toBe(200);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^auth_code_/),
      app_id: expect.any(Number),
      created_at: time.clock().toISOString(),
    });

    const exchanged = await exchange({ code: created.body.data.id, code_verifier: v, code_challenge_method: 'S256' });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.key).toMatch(/^sk-mg-v1-/);
    expect(typeof exchanged.body.user_id).toBe('string');

    const self = await call(gw, 'GET', '/key', { key: exchanged.body.key });
    expect(self.status).toBe(200);
    expect(self.body.data).toMatchObject({
      limit: 25,
      limit_reset: 'weekly',
      expires_at: '2030-06-01T00:00:00.000Z',
      is_management_key: false,
    });
    const list = await call(gw, 'GET', '/keys', { key: gw.managementKey });
    expect(list.body.data.map((k: { name: string }) => k.name)).toContain('CLI');
  });

  it('defaults the key label to the app name', async () => {
    const v = verifier('label');
    const created = await createCode({ code_challenge: s256(v), code_challenge_method: 'S256' }, { 'X-OpenRouter-Title': 'Named App' });
    const exchanged = await exchange({ code: created.body.data.id, code_verifier: v });
    const list = await call(gw, 'GET', '/keys', { key: gw.managementKey });
    const names = list.body.data.map((k: { name: string }) => k.name);
    expect(exchanged.status).toBe(200);
    expect(names).toContain('Named App');
  });

  it('gives the same app the same app_id', async () => {
    const a = await createCode({}, { 'HTTP-Referer': 'https://same.example/x' });
    const b = await createCode({}, { 'HTTP-Referer': 'https://same.example/y' });
    expect(a.body.data.app_id).toBe(b.body.data.app_id);
  });

  it('supports the plain method and codes without a challenge', async () => {
    const v = verifier('plain');
    const plain = await createCode({ code_challenge: v, code_challenge_method: 'plain' });
    expect((await exchange({ code: plain.body.data.id, code_verifier: v })).status).toBe(200);
    const none = await createCode({});
    expect((await exchange({ code: none.body.data.id })).status).toBe(200);
  });

  it('refuses a wrong verifier with 403, and a code works once', async () => {
    const v = verifier('once');
    const created = await createCode({ code_challenge: s256(v), code_challenge_method: 'S256' });
    const wrong = await exchange({ code: created.body.data.id, code_verifier: verifier('other') });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe('PKCE verification failed: code_verifier does not match the code_challenge');
    const missing = await exchange({ code: created.body.data.id });
    expect(missing.status).toBe(403);
    expect((await exchange({ code: created.body.data.id, code_verifier: v })).status).toBe(200);
    const reused = await exchange({ code: created.body.data.id, code_verifier: v });
    expect(reused.status).toBe(403);
    expect(reused.body.error.message).toBe('Authorization code is invalid, expired or already used');
  });

  it('refuses a method other than the one the code was made with', async () => {
    const v = verifier('method');
    const created = await createCode({ code_challenge: s256(v), code_challenge_method: 'S256' });
    const res = await exchange({ code: created.body.data.id, code_verifier: v, code_challenge_method: 'plain' });
    expect(res.status).toBe(403);
  });

  it('lets a code expire after a few minutes', async () => {
    const v = verifier('expiry');
    const created = await createCode({ code_challenge: s256(v), code_challenge_method: 'S256' });
    time.advance(AUTHORIZATION_CODE_TTL_MS + 1);
    expect((await exchange({ code: created.body.data.id, code_verifier: v })).status).toBe(403);
  });

  it('refuses an unknown code', async () => {
    expect((await exchange({ code: 'auth_code_nope', code_verifier: verifier('x') })).status).toBe(403);
  });

  it('answers 409 when an unused code already carries the same challenge', async () => {
    const challenge = s256(verifier('conflict'));
    expect((await createCode({ code_challenge: challenge, code_challenge_method: 'S256' })).status).toBe(200);
    const again = await createCode({ code_challenge: challenge, code_challenge_method: 'S256' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe(409);
  });

  it.each([
    [{ callback_url: 'http://app.example/cb' }, 'callback_url must be an https URL on port 443 or 3000'],
    [{ callback_url: 'https://app.example:8443/cb' }, 'callback_url must be an https URL on port 443 or 3000'],
    [{ callback_url: 'http://localhost:3000/cb' }, 'callback_url must be an https URL on port 443 or 3000'],
    [{ callback_url: 'not a url' }, 'callback_url must be a valid uri'],
    [{ key_label: 'x'.repeat(101) }, 'key_label must be at most 100 characters long'],
    [{ code_challenge_method: 'S512', code_challenge: s256('a') }, 'code_challenge_method must be one of "S256", "plain"'],
    [{ code_challenge_method: 'S256' }, 'code_challenge_method requires code_challenge'],
    [{ code_challenge: 'short' }, 'code_challenge must match the pattern'],
    [{ usage_limit_type: 'hourly' }, 'usage_limit_type must be one of "daily", "weekly", "monthly"'],
    [{ limit: 'lots' }, 'limit must be of type number'],
    [{ expires_at: 'soon' }, 'expires_at must be a valid date-time'],
  ])('refuses %j with 400 naming the rule', async (body, message) => {
    const res = await createCode(body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
  });

  it('accepts port 3000 and explicit 443', async () => {
    expect((await createCode({ callback_url: 'https://app.example:3000/cb' })).status).toBe(200);
    expect((await createCode({ callback_url: 'https://app.example:443/cb' })).status).toBe(200);
  });

  it('needs a key to create a code', async () => {
    const res = await call(gw, 'POST', '/auth/keys/code', { body: { callback_url: 'https://app.example/cb' } });
    expect(res.status).toBe(401);
  });

  it('refuses an exchange body without a code', async () => {
    const res = await exchange({});
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('code is required');
  });
});
