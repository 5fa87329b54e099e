import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enroll } from '../../src/store/repositories/interns.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

/**
 * Every list endpoint bounds its numeric query parameters: a value outside
 * them is a 400 in the envelope naming the parameter, never a 500 from the
 * database (`offset=1e20` is not an integer SQL can skip by).
 */
describe.each(testEngines)('list endpoints bound their query strings on $name', (engine) => {
  let gw: RunningGateway;
  /** Every list route, with a real parent where the path names one. */
  let lists: string[];

  beforeAll(async () => {
    gw = await startGateway(engine);
    await enroll(gw.store.db, gw.organizationId, new Date().toISOString());
    const guardrail = await call(gw, 'POST', '/guardrails', { key: gw.managementKey, body: { name: 'Bounds' } });
    const preset = await call(gw, 'POST', '/presets', { key: gw.managementKey, body: { slug: 'bounds', config: { temperature: 0.5 } } });
    expect([guardrail.status, preset.status]).toEqual([201, 201]);
    const scopes = ['keys', 'members', 'workspaces', 'organization'];
    lists = [
      '/keys',
      '/organization/members',
      '/guardrails',
      ...scopes.map((s) => `/guardrails/assignments/${s}`),
      ...scopes.map((s) => `/guardrails/${guardrail.body.data.id}/assignments/${s}`),
      '/presets',
      '/presets/bounds/versions',
      '/models',
      '/interns',
      '/vault/secrets',
      '/vault/interns/intern_unknown/secrets',
      '/generations',
    ];
  });
  afterAll(async () => {
    await gw.close();
  });

  const get = (path: string, query: string) => call(gw, 'GET', `${path}?${query}`, { key: gw.managementKey });

  it.each(['1e20', '1e309', 'Infinity', '-1', '1.5', '9007199254740992', 'abc'])(
    'answers offset=%s with 400 naming offset',
    async (offset) => {
      for (const path of lists.filter((p) => p !== '/interns')) {
        const res = await get(path, `offset=${offset}`);
        expect({ path, status: res.status }).toEqual({ path, status: 400 });
        expect(res.body.error.code).toBe(400);
        expect(res.body.error.message).toMatch(/^query parameter offset /);
      }
    },
  );

  it.each(['1e20', '0', '-5', '100000', 'NaN'])('answers limit=%s with 400 naming limit', async (limit) => {
    for (const path of lists.filter((p) => p !== '/keys')) {
      const res = await get(path, `limit=${limit}`);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.body.error.message).toMatch(/^query parameter limit /);
    }
  });

  it('serves the largest offset it accepts as an empty page', async () => {
    // GET /generations stops at offset 10,000 (a deeper page is reached by narrowing its dates).
    expect((await get('/generations', 'offset=10000')).body.data).toEqual([]);
    for (const path of lists.filter((p) => p !== '/interns' && p !== '/generations' && !p.startsWith('/vault/interns/'))) {
      const res = await get(path, `offset=${Number.MAX_SAFE_INTEGER}`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.body.data).toEqual([]);
    }
  });

  /** Query values near the edges of what a number, a boolean or a cursor can be, and anything else. */
  const value = fc.oneof(
    fc.constantFrom(
      '',
      '0',
      '-0',
      '1',
      '100',
      '101',
      '500',
      '501',
      '1e3',
      '1e20',
      '1e309',
      '-1e309',
      'Infinity',
      'NaN',
      '0x10',
      '1_000',
      ' 7',
      'true',
      'null',
      '[]',
    ),
    fc.integer().map(String),
    fc.double().map(String),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    fc.string({ maxLength: 30 }),
    fc.uuid(),
  );
  const name = fc.oneof(
    fc.constantFrom('offset', 'limit', 'workspace_id', 'include_disabled', 'status', 'starting_after', 'offset[]', 'limit[a]'),
    fc.string({ maxLength: 10 }),
  );
  const queryString = fc
    .array(fc.tuple(name, value), { maxLength: 5 })
    .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

  it('answers any query string of a list endpoint without a 5xx, and every 4xx in the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: lists.length - 1 }), queryString, async (index, query) => {
        const res = await get(lists[index]!, query);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.body).toMatchObject({ error: { code: res.status, message: expect.any(String) } });
        }
      }),
      { numRuns: 300 },
    );
    expect((await get('/keys', '')).status).toBe(200);
  });
});
