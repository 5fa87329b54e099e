import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/create-api-key.js';
import { CONSOLE_CSP } from '../../src/api/console/serve-console.js';
import { SIGN_IN_LIMITS } from '../../src/api/console/sign-in-limiter.js';
import { addMember, removeMember } from '../../src/store/repositories/members.js';
import { findDefaultWorkspace } from '../../src/store/repositories/workspaces.js';
import { newUserId } from '../../src/util/ids.js';
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

  it('deletes a file (a change that costs nothing) with the cookie and its CSRF token, and never without the token', async () => {
    const { session, csrf } = await signIn(gw.managementKey);
    const form = new FormData();
    form.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'table.csv');
    const uploaded = await fetch(`${gw.baseUrl}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.managementKey}` },
      body: form,
    });
    const { id } = (await uploaded.json()) as { id: string };
    const noToken = await call(gw, 'DELETE', `/files/${id}`, { headers: withSession(session, { origin }) });
    expect(noToken.status).toBe(403);
    expect((await call(gw, 'GET', `/files/${id}`, { headers: withSession(session) })).status).toBe(200);
    const deleted = await call(gw, 'DELETE', `/files/${id}`, { headers: withSession(session, { origin, 'x-csrf-token': csrf }) });
    expect(deleted.status).toBe(200);
    expect((await call(gw, 'GET', `/files/${id}`, { headers: withSession(session) })).status).toBe(404);
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
    expect(disabled.body.error.message).toBe('Console session has ended or is unknown: sign in again');
  });

  /** A second management key, created by a new member of the organization, and a session of it. */
  const memberSession = async (email: string) => {
    const workspace = await findDefaultWorkspace(gw.store.db, gw.organizationId);
    const member = await addMember(gw.store.db, gw.organizationId, { email, role: 'admin' }, newUserId, time.clock().toISOString());
    const made = await createApiKey(
      gw.store.db,
      { organizationId: gw.organizationId, workspaceId: workspace!.id, name: email, isManagement: true, creatorUserId: member.id },
      time.clock().toISOString(),
    );
    const { session } = await signIn(made.key);
    expect((await call(gw, 'GET', '/keys', { headers: withSession(session) })).status).toBe(200);
    return { member, hash: made.row.hash, session };
  };
  const sessionsOf = async (hash: string) =>
    (await gw.store.db.selectFrom('console_sessions').select('id_hash').where('api_key_hash', '=', hash).execute()).length;

  it("ends a disabled key's sessions for good: enabling the key again does not bring the old cookie back", async () => {
    const { hash, session } = await memberSession('disabled-then-enabled@example.com');
    expect((await call(gw, 'PATCH', `/keys/${hash}`, { key: gw.managementKey, body: { disabled: true } })).status).toBe(200);
    expect(await sessionsOf(hash)).toBe(0);
    expect((await call(gw, 'PATCH', `/keys/${hash}`, { key: gw.managementKey, body: { disabled: false } })).status).toBe(200);
    const revived = await call(gw, 'GET', '/keys', { headers: withSession(session) });
    expect(revived.status).toBe(401);
    expect(revived.body.error.message).toBe('Console session has ended or is unknown: sign in again');
  });

  it("ends a deleted key's sessions, and the sessions of a removed member's keys, for good", async () => {
    const deleted = await memberSession('deleted-key@example.com');
    expect((await call(gw, 'DELETE', `/keys/${deleted.hash}`, { key: gw.managementKey })).status).toBe(200);
    expect(await sessionsOf(deleted.hash)).toBe(0);
    expect((await call(gw, 'GET', '/keys', { headers: withSession(deleted.session) })).status).toBe(401);

    const removed = await memberSession('removed-member@example.com');
    expect(await removeMember(gw.store.db, gw.organizationId, removed.member.email)).toBe(removed.member.id);
    expect(await sessionsOf(removed.hash)).toBe(0);
    await addMember(gw.store.db, gw.organizationId, { email: removed.member.email, role: 'admin' }, newUserId, time.clock().toISOString());
    const back = await call(gw, 'GET', '/keys', { headers: withSession(removed.session) });
    expect(back.status).toBe(401);
    expect(back.body.error.message).toBe('Console session has ended or is unknown: sign in again');
  });

  it("checks at use that the key still stands behind the session: a creator's membership gone by any way ends it", async () => {
    const { member, hash, session } = await memberSession('left-by-hand@example.com');
    const membership = await gw.store.db.selectFrom('memberships').selectAll().where('user_id', '=', member.id).executeTakeFirstOrThrow();
    await gw.store.db.deleteFrom('memberships').where('user_id', '=', member.id).execute();
    expect((await call(gw, 'GET', '/keys', { headers: withSession(session) })).status).toBe(401);
    expect(await sessionsOf(hash)).toBe(0);
    await gw.store.db.insertInto('memberships').values(membership).execute();
    expect((await call(gw, 'GET', '/keys', { headers: withSession(session) })).status).toBe(401);
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

describe('console sign-in limits', () => {
  let gw: RunningGateway;
  let origin: string;
  const signIn = (key: string) => call(gw, 'POST', '/console/session', { body: { key }, headers: { origin } });
  /** A wrong key with a prefix of its own. */
  const wrongKey = (i: number) => `${String(i).padStart(12, 'x')}-not-a-key`;

  beforeEach(async () => {
    gw = await startGateway(testEngines[0]!);
    origin = new URL(gw.baseUrl).origin;
  });
  afterEach(async () => {
    await gw.close();
  });

  it('answers a burst of wrong sign-ins from one address with 429 and Retry-After past 20 failures', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => signIn(wrongKey(i))));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_LIMITS.perAddress);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - SIGN_IN_LIMITS.perAddress);
    const limited = answers.find((a) => a.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowSeconds);
    expect(limited.body.error).toEqual({
      code: 429,
      message: `Too many failed console sign-ins from this client address: 20 are allowed per 300 seconds; retry after the Retry-After header's seconds`,
      metadata: { retry_after_seconds: Number(limited.headers.get('retry-after')) },
    });
    // The right key waits too: the address is refused before any key is looked at.
    expect((await signIn(gw.managementKey)).status).toBe(429);
  });

  it("refuses guesses with one key's prefix past 10, while another key still signs in; successes do not count", async () => {
    for (let i = 0; i < 25; i++) expect((await signIn(gw.managementKey)).status).toBe(201);
    const samePrefix = (i: number) => `sk-mg-v1-abc${'0'.repeat(52)}${i}`;
    for (let i = 0; i < SIGN_IN_LIMITS.perKeyPrefix; i++) expect((await signIn(samePrefix(i))).status).toBe(401);
    const limited = await signIn(samePrefix(99));
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toMatch(/^Too many failed console sign-ins with this key's prefix: 10 are allowed/);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await signIn(gw.managementKey)).status).toBe(201);
  });
});
