import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { keysOf, scim, scimWorld } from '../support/scim.js';
import { until } from '../support/until.js';

const redisUrl = process.env.TEST_REDIS_URL;
const postgres = testEngines.filter((engine) => engine.name === 'postgres');
/** PostgreSQL's own change feed, and a Redis one. */
const variants = [
  ...postgres.map((engine) => ({ name: engine.name, engine, redisUrl: undefined })),
  ...(redisUrl ? postgres.map((engine) => ({ name: `${engine.name} + Redis`, engine, redisUrl })) : []),
];

/**
 * Deprovisioning behind a load balancer: the identity provider's PATCH lands on one instance, the
 * user's keys are used on the other, which had them in memory. The other refuses them as soon as the
 * change notice arrives, as it does for a revoked key.
 */
describe.skipIf(variants.length === 0).each(variants)(
  'SCIM deprovisioning across two instances on $name',
  ({ engine, redisUrl: redis }) => {
    let database: TestDatabase;
    let a: RunningGateway;
    let b: RunningGateway;

    beforeAll(async () => {
      database = await engine.create();
      a = await startGateway(engine, { databaseUrl: database.url, ...(redis ? { redisUrl: redis } : {}) });
      b = await startGateway(engine, { databaseUrl: database.url, ...(redis ? { redisUrl: redis } : {}) });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    it("refuses a deactivated user's keys on the instance that did not deactivate them", async () => {
      const { token } = await scimWorld(a);
      const userId = (
        await scim(a, token, 'POST', '/Users', { userName: 'leaver@example.com', emails: [{ value: 'leaver@example.com', primary: true }] })
      ).body.id as string;
      const keys = await keysOf(a, userId);
      // B remembers the keys and the membership.
      expect((await call(b, 'GET', '/interns', { key: keys.plain })).status).toBe(200);
      expect((await call(b, 'GET', '/keys', { key: keys.management })).status).toBe(200);

      expect(
        (await scim(a, token, 'PATCH', `/Users/${userId}`, { Operations: [{ op: 'replace', value: { active: false } }] })).status,
      ).toBe(200);
      const interns = await until(
        () => call(b, 'GET', '/interns', { key: keys.plain }),
        (answer) => answer.status === 403,
      );
      expect(interns.headers.get('x-error-code')).toBe('GW_ERR_KEY_CREATOR_NOT_MEMBER');
      const management = await until(
        () => call(b, 'GET', '/keys', { key: keys.management }),
        (answer) => answer.status === 401,
      );
      expect(management.headers.get('x-error-code')).toBe('GW_ERR_API_KEY_DISABLED');
    });
  },
);
