import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERN_PROGRAMME_TOPIC } from '../../src/interns/flag-cache.js';
import { enroll, unenroll } from '../../src/store/repositories/interns.js';
import { addMember, removeMember } from '../../src/store/repositories/members.js';
import { newUserId } from '../../src/util/ids.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

const meta = (reason: string, retryable: boolean) => ({ reason, retryable });

/** A key of the organization created for a member (its creator). */
async function memberKey(gateway: RunningGateway, email: string): Promise<{ key: string; hash: string; userId: string }> {
  const member = await addMember(gateway.store.db, gateway.organizationId, { email, role: 'member' }, newUserId, new Date().toISOString());
  const created = await call(gateway, 'POST', '/keys', { key: gateway.managementKey, body: { name: email, creator_user_id: member.id } });
  expect(created.status).toBe(201);
  return { key: created.body.key, hash: created.body.data.hash, userId: member.id };
}

describe.each(testEngines)('interns API on $name', (engine) => {
  let gateway: RunningGateway;
  let key: string;

  beforeAll(async () => {
    // No runtime here: these rows are answered before a run would start (the runtime's are in interns-lifecycle).
    gateway = await startGateway(engine, { interns: { acceptTimeoutMs: 300 }, internRuntime: false });
    ({ key } = await memberKey(gateway, 'ada@example.com'));
  });
  afterAll(async () => {
    await gateway?.close();
  });

  const enrolled = async (yes: boolean) => {
    if (yes) await enroll(gateway.store.db, gateway.organizationId, new Date().toISOString());
    else await unenroll(gateway.store.db, gateway.organizationId);
    await gateway.changes.publish(INTERN_PROGRAMME_TOPIC, gateway.organizationId);
  };
  const setStatus = (id: string, status: 'running' | 'queued') =>
    gateway.store.db.updateTable('interns').set({ status }).where('id', '=', id).execute();

  it('answers 401 "invalid or missing API key" and, outside the programme, 404 not_found on every /interns path', async () => {
    const missing = await call(gateway, 'GET', '/interns');
    expect(missing.status).toBe(401);
    expect(missing.body.error.message).toMatch(/^Invalid or missing API key/);
    expect(missing.body.error.metadata).toBeUndefined();
    const wrong = await call(gateway, 'POST', '/interns/x/invoke', { key: 'sk-mg-v1-nope', body: { input: 'hi' } });
    expect([wrong.status, wrong.body.error.message]).toEqual([401, 'Invalid or missing API key: Invalid API key']);

    for (const [method, path] of [
      ['GET', '/interns'],
      ['POST', '/interns'],
      ['GET', '/interns/i'],
      ['PATCH', '/interns/i'],
      ['DELETE', '/interns/i'],
      ['POST', '/interns/i/provision'],
      ['POST', '/interns/i/suspend'],
      ['POST', '/interns/i/invoke'],
      ['GET', '/interns/i/sessions/s'],
    ] as const) {
      const outside = await call(gateway, method, path, {
        key,
        ...(method === 'POST' || method === 'PATCH' ? { body: { input: 'x', name: 'x' } } : {}),
      });
      expect(outside.status, `${method} ${path}`).toBe(404);
      expect(outside.body.error.metadata).toEqual(meta('not_found', false));
    }
    await enrolled(true);
    expect((await call(gateway, 'GET', '/interns', { key })).status).toBe(200);
  });

  it('creates, lists with cursor paging and status filter, gets and updates interns with the SDK shape', async () => {
    await enrolled(true);
    const created = await call(gateway, 'POST', '/interns', {
      key,
      body: {
        name: 'scout',
        description: 'finds things',
        instructions: 'be brief',
        model: 'service/auto',
        allowed_domains: ['example.com'],
        deadline_seconds: 120,
        interaction_deadline_seconds: 600,
        turns_per_minute: 30,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'scout',
      description: 'finds things',
      instructions: 'be brief',
      model: 'service/auto',
      status: 'queued',
      progress: null,
      last_failure_message: null,
      vault_id: null,
      attached_vault_id: null,
      hostname: null,
      settings: {
        allowed_domains: ['example.com'],
        deadline_seconds: 120,
        interaction_deadline_seconds: 600,
        turns_per_minute: 30,
        max_open_questions: 1,
      },
    });
    expect(created.body.id).toMatch(/^intern_/);
    const ids = [created.body.id];
    for (const name of ['b', 'c']) ids.push((await call(gateway, 'POST', '/interns', { key, body: { name } })).body.id);

    const first = await call(gateway, 'GET', '/interns?limit=2', { key });
    expect(first.status).toBe(200);
    expect(first.body.has_more).toBe(true);
    expect(first.body.data).toHaveLength(2);
    const second = await call(gateway, 'GET', `/interns?limit=2&starting_after=${first.body.next_cursor}`, { key });
    const seen = [...first.body.data, ...second.body.data].map((i: { id: string }) => i.id);
    expect(new Set(seen)).toEqual(
      new Set((await call(gateway, 'GET', '/interns?limit=500', { key })).body.data.map((i: { id: string }) => i.id)),
    );
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect((await call(gateway, 'GET', '/interns?status=running', { key })).body.data).toEqual([]);
    const badCursor = await call(gateway, 'GET', '/interns?starting_after=zzz', { key });
    expect([badCursor.status, badCursor.body.error.metadata]).toEqual([400, meta('bad_request', false)]);
    const badStatus = await call(gateway, 'GET', '/interns?status=sleeping', { key });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error.message).toMatch(/sleeping/);

    const got = await call(gateway, 'GET', `/interns/${created.body.id}`, { key });
    expect(got.body).toEqual(created.body);
    const updated = await call(gateway, 'PATCH', `/interns/${created.body.id}`, {
      key,
      body: { name: 'scout 2', description: null, turns_per_minute: null },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'scout 2',
      description: null,
      instructions: 'be brief',
      settings: { turns_per_minute: null, deadline_seconds: 120 },
    });
    const missing = await call(gateway, 'GET', '/interns/intern_nope', { key });
    expect([missing.status, missing.body.error.metadata]).toEqual([404, meta('not_found', false)]);
  });

  it('refuses bad create and update bodies with 400 bad_request naming the field and rule', async () => {
    await enrolled(true);
    const cases: Array<[unknown, RegExp]> = [
      [{}, /name/],
      [{ name: '' }, /name must be at least 1 character/],
      [{ name: 'x', deadline_seconds: 0 }, /deadline_seconds/],
      [{ name: 'x', interaction_deadline_seconds: 0 }, /interaction_deadline_seconds/],
      [{ name: 'x', webhook_url: 'ftp://x' }, /webhook_url/],
      [{ name: 'x', allowed_domains: ['not a domain'] }, /allowed_domains/],
      [{ name: 'x', tools: ['shell'] }, /tools/],
      [{ name: 'x', surprise: 1 }, /surprise/],
      // Checked when set, not at the run's first model call.
      [{ name: 'x', model: 'acme/nonexistent' }, /model: acme\/nonexistent is not a chat model this gateway serves/],
    ];
    for (const [body, message] of cases) {
      const res = await call(gateway, 'POST', '/interns', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
      expect(res.body.error.metadata).toEqual(meta('bad_request', false));
    }
    // A workspace the organization lacks: 400 to its management key; to a member's key any other workspace is absent.
    const unknown = await call(gateway, 'POST', '/interns', { key: gateway.managementKey, body: { name: 'x', workspace_id: 'ws_other' } });
    expect([unknown.status, unknown.body.error.message]).toEqual([400, 'workspace_id ws_other is not a workspace of this organization']);
    const other = await call(gateway, 'POST', '/interns', { key, body: { name: 'x', workspace_id: 'ws_other' } });
    expect([other.status, other.body.error.metadata]).toEqual([404, meta('not_found', false)]);
    const intern = (await call(gateway, 'POST', '/interns', { key, body: { name: 'm', model: 'service/auto' } })).body;
    const badModel = await call(gateway, 'PATCH', `/interns/${intern.id}`, { key, body: { model: 'acme/nonexistent' } });
    expect([badModel.status, badModel.body.error.metadata]).toEqual([400, meta('bad_request', false)]);
    expect((await call(gateway, 'GET', `/interns/${intern.id}`, { key })).body.model).toBe('service/auto');
  });

  it('invoke: 400 for bad bodies, 413 past 1 MiB, 404 for unknown interns, 409 for an intern that is not running', async () => {
    await enrolled(true);
    const intern = (await call(gateway, 'POST', '/interns', { key, body: { name: 'inv' } })).body;
    for (const body of [
      {},
      { input: '' },
      { input: 'x'.repeat(32_001) },
      { input: 'hi', session_id: '' },
      { input: 'hi', session_id: 's'.repeat(257) },
      { input: 5 },
    ]) {
      const res = await call(gateway, 'POST', `/interns/${intern.id}/invoke`, { key, body });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error.metadata).toEqual(meta('bad_request', false));
    }
    const malformed = await call(gateway, 'POST', `/interns/${intern.id}/invoke`, { key, body: '{"input":' });
    expect([malformed.status, malformed.body.error.metadata]).toEqual([400, meta('bad_request', false)]);
    const huge = await call(gateway, 'POST', `/interns/${intern.id}/invoke`, { key, body: { input: 'x', pad: 'y'.repeat(1_048_576) } });
    expect([huge.status, huge.body.error.metadata]).toEqual([413, meta('payload_too_large', false)]);
    const unknown = await call(gateway, 'POST', '/interns/intern_nope/invoke', { key, body: { input: 'hi' } });
    expect([unknown.status, unknown.body.error.metadata]).toEqual([404, meta('not_found', false)]);
    const notReady = await call(gateway, 'POST', `/interns/${intern.id}/invoke`, { key, body: { input: 'hi' } });
    expect([notReady.status, notReady.body.error.metadata]).toEqual([409, meta('intern_not_ready', true)]);
    expect(notReady.body.error.message).toMatch(/status queued/);
  });

  it('invoke: a session_id not issued to this caller on this intern is 404', async () => {
    await enrolled(true);
    const intern = (await call(gateway, 'POST', '/interns', { key, body: { name: 'sess' } })).body;
    const other = (await call(gateway, 'POST', '/interns', { key, body: { name: 'other' } })).body;
    await setStatus(intern.id, 'running');
    const now = new Date().toISOString();
    const { hash: otherHash } = await memberKey(gateway, 'grace@example.com');
    const sessions = [
      { id: 'isess_foreign_key', intern_id: intern.id, api_key_hash: otherHash, origin: 'invoke' as const },
      { id: 'isess_other_intern', intern_id: other.id, api_key_hash: 'x', origin: 'invoke' as const },
      { id: 'isess_chat', intern_id: intern.id, api_key_hash: 'x', origin: 'chat' as const },
    ];
    for (const s of sessions)
      await gateway.store.db
        .insertInto('intern_sessions')
        .values({ ...s, organization_id: gateway.organizationId, created_at: now })
        .execute();
    for (const id of ['isess_foreign_key', 'isess_other_intern', 'isess_chat', 'isess_never_issued']) {
      const res = await call(gateway, 'POST', `/interns/${intern.id}/invoke`, { key, body: { input: 'hi', session_id: id } });
      expect([res.status, res.body.error.metadata], id).toEqual([404, meta('not_found', false)]);
    }
    const foreignView = await call(gateway, 'GET', `/interns/${intern.id}/sessions/isess_foreign_key`, { key });
    expect(foreignView.status).toBe(404);
  });

  it('counts turns against turns_per_minute: past it, 429 rate_limited with Retry-After', async () => {
    await enrolled(true);
    const intern = (await call(gateway, 'POST', '/interns', { key, body: { name: 'quota', turns_per_minute: 1 } })).body;
    await setStatus(intern.id, 'running');
    // This gateway runs no intern runtime: the admitted turn reaches it and fails 502; the next is over quota.
    const first = await call(gateway, 'POST', `/interns/${intern.id}/invoke`, { key, body: { input: 'one' } });
    expect([first.status, first.body.error.metadata]).toEqual([502, meta('intern_unreachable', true)]);
    const second = await call(gateway, 'POST', `/interns/${intern.id}/invoke`, { key, body: { input: 'two' } });
    expect([second.status, second.body.error.metadata]).toEqual([429, meta('rate_limited', true)]);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('403 without metadata when the key creator left the organization, until an admin reassigns the key', async () => {
    await enrolled(true);
    const leaver = await memberKey(gateway, 'leaver@example.com');
    await removeMember(gateway.store.db, gateway.organizationId, 'leaver@example.com');
    const refused = await call(gateway, 'GET', '/interns', { key: leaver.key });
    expect(refused.status).toBe(403);
    expect(refused.body.error.metadata).toBeUndefined();
    expect(refused.body.error.message).toMatch(/organization admin must reassign the key to an active member/);

    const notMember = await call(gateway, 'PATCH', `/keys/${leaver.hash}`, {
      key: gateway.managementKey,
      body: { creator_user_id: leaver.userId },
    });
    expect(notMember.status).toBe(400);
    expect(notMember.body.error.message).toMatch(/creator_user_id .* is not an active member/);
    const keeper = await addMember(
      gateway.store.db,
      gateway.organizationId,
      { email: 'keeper@example.com', role: 'admin' },
      newUserId,
      new Date().toISOString(),
    );
    const reassigned = await call(gateway, 'PATCH', `/keys/${leaver.hash}`, {
      key: gateway.managementKey,
      body: { creator_user_id: keeper.id },
    });
    expect(reassigned.status).toBe(200);
    expect((await call(gateway, 'GET', '/interns', { key: leaver.key })).status).toBe(200);
  });

  it('as the SDK documents: 415 for a lifecycle body that is not JSON, 400 for provision or suspend with a body carrying fields', async () => {
    await enrolled(true);
    const intern = (await call(gateway, 'POST', '/interns', { key, body: { name: 'strict' } })).body;
    for (const [method, path] of [
      ['POST', '/interns'],
      ['PATCH', `/interns/${intern.id}`],
      ['DELETE', `/interns/${intern.id}`],
      ['POST', `/interns/${intern.id}/provision`],
      ['POST', `/interns/${intern.id}/suspend`],
    ] as const) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await fetch(`${gateway.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': type },
          body: 'name=x',
        });
        expect(res.status, `${method} ${path} ${type}`).toBe(415);
        expect(((await res.json()) as any).error.metadata).toEqual(meta('unsupported_media_type', false));
      }
    }
    for (const action of ['provision', 'suspend']) {
      const res = await call(gateway, 'POST', `/interns/${intern.id}/${action}`, { key, body: { now: true } });
      expect([res.status, res.body.error.metadata], action).toEqual([400, meta('bad_request', false)]);
    }
    // No body, or an empty one, is what these operations take (here answered 502: this gateway runs no runtime).
    expect((await call(gateway, 'POST', `/interns/${intern.id}/provision`, { key, body: {} })).status).toBe(502);
    expect((await call(gateway, 'GET', `/interns/${intern.id}`, { key })).body.status).toBe('queued');
  });

  it('without a runtime, provisioning answers 502 intern_unreachable and leaves the intern queued', async () => {
    await enrolled(true);
    const intern = (await call(gateway, 'POST', '/interns', { key, body: { name: 'p' } })).body;
    const res = await call(gateway, 'POST', `/interns/${intern.id}/provision`, { key });
    expect([res.status, res.body.error.metadata]).toEqual([502, meta('intern_unreachable', true)]);
    expect((await call(gateway, 'GET', `/interns/${intern.id}`, { key })).body.status).toBe('queued');
  });

  it.runIf(engine.name === 'postgres')('408 timeout when the invoke cannot be accepted in time (sessions table locked)', async () => {
    await enrolled(true);
    const intern = (await call(gateway, 'POST', '/interns', { key, body: { name: 'slow' } })).body;
    await setStatus(intern.id, 'running');
    const locker = new pg.Client({ connectionString: gateway.store.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE intern_sessions IN ACCESS EXCLUSIVE MODE');
      const res = await call(gateway, 'POST', `/interns/${intern.id}/invoke`, { key, body: { input: 'hi' } });
      expect([res.status, res.body.error.metadata]).toEqual([408, meta('timeout', true)]);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
  });

  it('outside the programme again after unenrolment; 500 intern_unreachable when the intern lookup fails', async () => {
    await enrolled(true);
    const intern = (await call(gateway, 'POST', '/interns', { key, body: { name: 'last' } })).body;
    await gateway.store.db.schema.alterTable('interns').renameTo('interns_away').execute();
    try {
      const res = await call(gateway, 'POST', `/interns/${intern.id}/invoke`, { key, body: { input: 'hi' } });
      expect([res.status, res.body.error.metadata]).toEqual([500, meta('intern_unreachable', true)]);
    } finally {
      await gateway.store.db.schema.alterTable('interns_away').renameTo('interns').execute();
    }
    await enrolled(false);
    expect((await call(gateway, 'GET', `/interns/${intern.id}`, { key })).status).toBe(404);
  });
});
