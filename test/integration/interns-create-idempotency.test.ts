import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway, testClock } from '../support/gateway.js';
import { enrolInProgramme } from '../support/intern-world.js';
import { waitFor } from '../support/interns-runtime.js';

/**
 * POST /interns under an idempotency key (the SDK's createIntern
 * idempotencyKey): a retry answers with the intern the first try made, on the
 * gateway clock's windows (a day for the caller's key, an hour for the one
 * derived from the body).
 */
describe.each(testEngines)('intern create idempotency on $name', (engine) => {
  const time = testClock(new Date().toISOString());
  let gateway: RunningGateway;
  let key: string;

  beforeAll(async () => {
    gateway = await startGateway(engine, { clock: time.clock, internRuntime: { tickMs: 100 } });
    await enrolInProgramme(gateway);
    key = gateway.managementKey;
  }, 30_000);
  afterAll(async () => {
    await gateway?.close();
  });

  const create = (body: Record<string, unknown>, idempotencyKey?: string, as = key) =>
    call(gateway, 'POST', '/interns', {
      key: as,
      body,
      ...(idempotencyKey !== undefined ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
    });
  const named = async (name: string) =>
    (await call(gateway, 'GET', '/interns?limit=500', { key })).body.data.filter((i: { name: string }) => i.name === name);

  it('a retry with the same Idempotency-Key and body answers 201 with the intern the first made; another body is 409; the key lapses after a day', async () => {
    const first = await create({ name: 'once', description: 'made once' }, 'create-once');
    expect(first.status).toBe(201);
    const retried = await create({ description: 'made once', name: 'once' }, 'create-once');
    expect(retried.status).toBe(201);
    expect(retried.body).toEqual(first.body);
    expect(await named('once')).toHaveLength(1);

    const conflicting = await create({ name: 'twice' }, 'create-once');
    expect(conflicting.status).toBe(409);
    expect(conflicting.body.error).toMatchObject({
      code: 409,
      message: expect.stringContaining('Idempotency-Key'),
      metadata: { reason: 'idempotency_key_reused', retryable: false },
    });
    expect(await named('twice')).toHaveLength(0);

    // A key is the caller's: another key's create under it is its own.
    const other = await call(gateway, 'POST', '/keys', { key, body: { name: 'second caller' } });
    const theirs = await create({ name: 'once', description: 'made once' }, 'create-once', other.body.key);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);

    time.advance(23 * 3_600_000);
    expect((await create({ name: 'once', description: 'made once' }, 'create-once')).body.id).toBe(first.body.id);
    time.advance(3_600_000 + 1_000);
    const anew = await create({ name: 'twice' }, 'create-once');
    expect(anew.status).toBe(201);
    expect(anew.body.id).not.toBe(first.body.id);
  }, 30_000);

  it('refuses an Idempotency-Key of 0 or more than 255 characters with 400 bad_request naming the header', async () => {
    for (const bad of ['', 'k'.repeat(256)]) {
      const refused = await create({ name: 'badkey' }, bad);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        message: expect.stringContaining('Idempotency-Key'),
        metadata: { reason: 'bad_request', retryable: false },
      });
    }
    expect((await create({ name: 'badkey' }, 'k'.repeat(255))).status).toBe(201);
    expect(await named('badkey')).toHaveLength(1);
  });

  it('without the header, the same body within an hour is the same create; after the hour it is a new intern', async () => {
    const first = await create({ name: 'derived', instructions: 'be brief' });
    const again = await create({ instructions: 'be brief', name: 'derived' });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.id).toBe(first.body.id);
    // A new key for the same body: a deliberate second intern.
    expect((await create({ name: 'derived', instructions: 'be brief' }, 'derived-2')).body.id).not.toBe(first.body.id);
    expect((await create({ name: 'derived', instructions: 'be terse' })).body.id).not.toBe(first.body.id);
    time.advance(3_600_000 + 1_000);
    expect((await create({ name: 'derived', instructions: 'be brief' })).body.id).not.toBe(first.body.id);
    expect(await named('derived')).toHaveLength(4);
  });

  it('tries sent at once under one key make one intern, and every one answers with it', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => create({ name: 'racing' }, 'race-key')));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await named('racing')).toHaveLength(1);
  });

  it('a retry resumes the provisioning its first try asked for and did not start', async () => {
    const body = { name: 'resumed', provision: true };
    const first = await create(body, 'resume-key');
    expect(first.status).toBe(201);
    await waitFor(
      async () => (await call(gateway, 'GET', `/interns/${first.body.id}`, { key })).body.status,
      (s) => s === 'running',
      'running',
    );
    // As if the first try had stopped between storing the intern and provisioning it.
    await gateway.store.db.updateTable('interns').set({ status: 'queued' }).where('id', '=', first.body.id).execute();
    const retried = await create(body, 'resume-key');
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(first.body.id);
    expect(['provisioning', 'running']).toContain(retried.body.status);
    // A retry of a create that did not ask for provisioning leaves the intern queued.
    const queued = await create({ name: 'left queued' }, 'queued-key');
    expect((await create({ name: 'left queued' }, 'queued-key')).body.status).toBe('queued');
    expect(queued.body.status).toBe('queued');
  }, 30_000);
});
