import { createHash, randomBytes } from 'node:crypto';
import { OpenRouter } from '@openrouter/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';

/**
 * The official @openrouter/sdk against the running gateway: every response
 * must parse with the SDK's own schemas (it throws when one does not).
 */
describe.each(testEngines)('@openrouter/sdk management operations on $name', (engine) => {
  let gw: RunningGateway;
  let sdk: OpenRouter;
  const client = (apiKey: string) => new OpenRouter({ apiKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });

  beforeAll(async () => {
    gw = await startGateway(engine);
    sdk = client(gw.managementKey);
  });
  afterAll(async () => {
    await gw.close();
  });

  it('creates, lists, gets, updates, disables and deletes keys', async () => {
    const created = await sdk.apiKeys.create({
      requestBody: { name: 'SDK key', limit: 12.5, limitReset: 'weekly', expiresAt: new Date('2031-01-01T00:00:00Z') },
    });
    expect(created.key).toMatch(/^sk-mg-v1-/);
    expect(created.data).toMatchObject({
      name: 'SDK key',
      limit: 12.5,
      limitRemaining: 12.5,
      limitReset: 'weekly',
      disabled: false,
      externalUser: null,
    });
    expect(created.data.expiresAt?.toISOString()).toBe('2031-01-01T00:00:00.000Z');
    const hash = created.data.hash;

    const listed = await sdk.apiKeys.list();
    expect(listed.data.map((k) => k.hash)).toContain(hash);

    const got = await sdk.apiKeys.get({ hash });
    expect(got.data.name).toBe('SDK key');

    const updated = await sdk.apiKeys.update({ hash, requestBody: { name: 'Renamed', disabled: true, limit: 20 } });
    expect(updated.data).toMatchObject({ name: 'Renamed', disabled: true, limit: 20 });
    await expect(client(created.key).apiKeys.getCurrentKeyMetadata()).rejects.toMatchObject({ statusCode: 401 });
    expect((await sdk.apiKeys.list({ includeDisabled: true })).data.map((k) => k.hash)).toContain(hash);

    await sdk.apiKeys.update({ hash, requestBody: { disabled: false } });
    const own = await client(created.key).apiKeys.getCurrentKeyMetadata();
    expect(own.data).toMatchObject({ label: created.data.label, limit: 20, isManagementKey: false });

    const deleted = await sdk.apiKeys.delete({ hash });
    expect(deleted.deleted).toBe(true);
    await expect(sdk.apiKeys.get({ hash })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('creates a key for a partner user with a partner-supplied key', async () => {
    const partnerKey = randomBytes(32).toString('hex');
    const created = await sdk.apiKeys.create({ requestBody: { name: 'Partner', external: { user: 'customer-42', apiKey: partnerKey } } });
    expect(created.data.externalUser).toBe('customer-42');
    expect(created.data.hash).toBe(createHash('sha256').update(partnerKey).digest('hex'));
    expect((await client(partnerKey).apiKeys.getCurrentKeyMetadata()).data.label).toBe(created.data.label);
  });

  it('reports validation errors as the SDK’s typed errors', async () => {
    await expect(sdk.apiKeys.create({ requestBody: { name: '' } })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('name must be at least 1 character long'),
    });
  });

  it('runs the PKCE flow', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const code = await sdk.oAuth.createAuthCode({
      appTitle: 'SDK App',
      requestBody: {
        callbackUrl: 'https://sdk.example/callback',
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
        limit: 5,
        keyLabel: 'From SDK',
      },
    });
    expect(code.data.id).toMatch(/^auth_code_/);
    expect(typeof code.data.appId).toBe('number');
    const exchanged = await client('').oAuth.exchangeAuthCodeForAPIKey({
      requestBody: { code: code.data.id, codeVerifier: verifier, codeChallengeMethod: 'S256' },
    });
    expect(exchanged.key).toMatch(/^sk-mg-v1-/);
    const own = await client(exchanged.key).apiKeys.getCurrentKeyMetadata();
    expect(own.data.limit).toBe(5);
    await expect(
      client('').oAuth.exchangeAuthCodeForAPIKey({
        requestBody: { code: code.data.id, codeVerifier: verifier, codeChallengeMethod: 'S256' },
      }),
    ).rejects.toMatchObject({ statusCode: 403 });
  });

  it('lists organization members page by page', async () => {
    const page = await sdk.organization.listMembers({ offset: 0, limit: 10 });
    expect(page.result.totalCount).toBe(1);
    expect(page.result.data[0]).toMatchObject({ email: 'owner@localhost', role: 'org:admin' });
  });
});
