import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { CONSOLE_CSP } from '../../src/api/console/serve-console.js';
import { findDefaultWorkspace } from '../../src/store/repositories/organizations.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';

const HOUR = 3_600_000;

describe.each(testEngines)('console sessions on $name', (engine) => {
  const time = testClock();
  let gw: RunningGateway;
  let origin: string;

  /** Signs in as a browser on the gateway's own page would: the cookie and the CSRF token it is given. */
  const signIn = async (key: string, headers: Record<string, string> = {}) => {
    const res = await call(gw, 'POST', '/console/session', { body: { key }, headers: { origin, ...headers } });
    const cookie = res.headers.getSetCookie()[0] ?? '';
    return { res, cookie, session: cookie.split(';')[0] ?? '', csrf: res.body?.data?.csrf_token as string };
  };
  const withSession = (session: string, headers: Record<string, string> = {}) => ({ cookie: session, ...headers });

  beforeAll(async () => {
    gw = await startGateway(engine, { clock: time.clock });
    origin = new URL(gw.baseUrl).origin;
  });
  afterAll(async () => {
    await gw.close();
  });

  it('trades a management key for an HttpOnly, SameSite=Strict cookie scoped to the API, and never returns the key', async () => {
    const { res, cookie } = await signIn(gw.managementKey);
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(cookie).toMatch(/^mg_console=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/api/v1');
    expect(cookie).not.toContain('Secure');
    expect(res.body.data).toEqual({
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: new Date(time.clock().getTime() + 12 * HOUR).toISOString(),
      organization_id: gw.organizationId,
      key: { hash: expect.stringMatching(/^[0-9a-f]{64}$/), name: expect.any(String), label: expect.stringMatching(/\.\.\./) },
    });
    expect(JSON.stringify(res.body)).not.toContain(gw.managementKey);
  });

  it('marks the cookie Secure behind a proxy that says the browser used https', async () => {
    const { cookie } = await signIn(gw.managementKey, { origin: origin.replace('http:', 'https:'), 'x-forwarded-proto': 'https' });
    expect(cookie).toContain('Secure');
  });

  it('refuses to sign in a plain key, an unknown key, and a request from another origin', async () => {
    const plain = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'plain' } });
    const refused = await signIn(plain.body.key);
    expect(refused.res.status).toBe(403);
    expect(refused.res.body.error).toEqual({ code: 403, message: 'Only management keys can perform this operation' });
    expect(refused.cookie).toBe('');
    expect((await signIn('sk-mg-v1-nonsense')).res.status).toBe(401);
    const foreign = await signIn(gw.managementKey, { origin: 'https://evil.example' });
    expect(foreign.res.status).toBe(403);
    expect(foreign.res.body.error.message).toBe('Console request refused: its Origin is not this gateway');
    const noOrigin = await call(gw, 'POST', '/console/session', { body: { key: gw.managementKey } });
    expect(noOrigin.status).toBe(403);
    expect((await call(gw, 'POST', '/console/session', { body: { key: gw.managementKey, extra: 1 }, headers: { origin } })).status).toBe(
      400,
    );
  });

  it('reads management routes with the cookie alone, and refuses a change without the CSRF token or from another origin', async () => {
    const { session, csrf } = await signIn(gw.managementKey);
    expect((await call(gw, 'GET', '/keys', { headers: withSession(session) })).status).toBe(200);
    expect((await call(gw, 'GET', '/console/session', { headers: withSession(session) })).body.data.csrf_token).toBe(csrf);

    const noToken = await call(gw, 'POST', '/keys', { body: { name: 'by console' }, headers: withSession(session, { origin }) });
    expect(noToken.status).toBe(403);
    expect(noToken.body.error).toEqual({
      code: 403,
      message: "Console request refused: the x-csrf-token header does not carry this session's token",
    });
    const wrongToken = await call(gw, 'POST', '/keys', {
      body: { name: 'by console' },
      headers: withSession(session, { origin, 'x-csrf-token': `${csrf.slice(1)}A` }),
    });
    expect(wrongToken.status).toBe(403);
    const wrongOrigin = await call(gw, 'POST', '/keys', {
      body: { name: 'by console' },
      headers: withSession(session, { origin: 'https://evil.example', 'x-csrf-token': csrf }),
    });
    expect(wrongOrigin.status).toBe(403);
    expect(wrongOrigin.body.error.message).toBe('Console request refused: its Origin is not this gateway');
    const other = await signIn(gw.managementKey);
    expect(
      (
        await call(gw, 'POST', '/keys', {
          body: { name: 'by console' },
          headers: withSession(session, { origin, 'x-csrf-token': other.csrf }),
        })
      ).status,
    ).toBe(403);

    const made = await call(gw, 'POST', '/keys', {
      body: { name: 'by console' },
      headers: withSession(session, { origin, 'x-csrf-token': csrf }),
    });
    expect(made.status).toBe(201);
    const patched = await call(gw, 'PATCH', `/keys/${made.body.data.hash}`, {
      body: { disabled: true, limit: 5, expires_at: '2030-01-01T00:00:00Z' },
      headers: withSession(session, { origin, 'x-csrf-token': csrf }),
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ disabled: true, limit: 5, expires_at: '2030-01-01T00:00:00.000Z' });
  });

  it('stands for a management key only where one reads: no paid request, no session without the cookie', async () => {
    const { session, csrf } = await signIn(gw.managementKey);
    expect((await call(gw, 'GET', '/models', { headers: withSession(session) })).status).toBe(200);
    const chat = await call(gw, 'POST', '/chat/completions', {
      body: { model: 'sim/a', messages: [{ role: 'user', content: 'hi' }] },
      headers: withSession(session, { origin, 'x-csrf-token': csrf }),
    });
    expect(chat.status).toBe(401);
    expect(chat.body.error.message).toBe('Missing Authentication header');
    expect((await call(gw, 'GET', '/keys', { headers: { cookie: 'mg_console=forged-session-id' } })).status).toBe(401);
    expect((await call(gw, 'GET', '/keys')).status).toBe(401);
  });

  it('ends a session idle for 12 hours, keeps one in use, and ends every session of a disabled key', async () => {
    const idle = await signIn(gw.managementKey);
    const busy = await signIn(gw.managementKey);
    time.advance(11 * HOUR);
    expect((await call(gw, 'GET', '/keys', { headers: withSession(busy.session) })).status).toBe(200);
    time.advance(1 * HOUR);
    const ended = await call(gw, 'GET', '/keys', { headers: withSession(idle.session) });
    expect(ended.status).toBe(401);
    expect(ended.body.error.message).toBe('Console session has ended or is unknown: sign in again');
    expect((await call(gw, 'GET', '/keys', { headers: withSession(busy.session) })).status).toBe(200);

    const workspace = await findDefaultWorkspace(gw.store.db, gw.organizationId);
    const second = await createApiKey(
      gw.store.db,
      { organizationId: gw.organizationId, workspaceId: workspace!.id, name: 'second admin', isManagement: true },
      time.clock().toISOString(),
    );
    const its = await signIn(second.key);
    expect((await call(gw, 'GET', '/keys', { headers: withSession(its.session) })).status).toBe(200);
    await call(gw, 'PATCH', `/keys/${second.row.hash}`, { key: gw.managementKey, body: { disabled: true } });
    const disabled = await call(gw, 'GET', '/keys', { headers: withSession(its.session) });
    expect(disabled.status).toBe(401);
    expect(disabled.body.error.message).toBe('API key is disabled');
  });

  it('signs out: the session is deleted and the cookie cleared', async () => {
    const { session, csrf } = await signIn(gw.managementKey);
    expect((await call(gw, 'DELETE', '/console/session', { headers: withSession(session, { origin }) })).status).toBe(403);
    const out = await call(gw, 'DELETE', '/console/session', { headers: withSession(session, { origin, 'x-csrf-token': csrf }) });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie()[0]).toMatch(/^mg_console=;.*Expires=Thu, 01 Jan 1970/);
    expect((await call(gw, 'GET', '/keys', { headers: withSession(session) })).status).toBe(401);
  });

  it('serves the page with a strict Content-Security-Policy, its bundles cached for good and itself checked each time', async () => {
    const root = await fetch(`${origin}/console`, { redirect: 'manual' });
    expect(root.status).toBe(301);
    expect(root.headers.get('location')).toBe('/console/');
    await root.arrayBuffer();
    const page = await fetch(`${origin}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toContain('unsafe');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    const script = /src="(assets\/app-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const bundle = await fetch(`${origin}/console/${script}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await bundle.text()).length).toBeGreaterThan(1000);
  });
});
