import { OpenRouter } from '@openrouter/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

/** Every presets operation of the official SDK parses the gateway's responses (the SDK throws when one does not). */
describe.each(testEngines)('@openrouter/sdk presets operations on $name', (engine) => {
  let gw: RunningGateway;
  let sdk: OpenRouter;

  beforeAll(async () => {
    gw = await startGateway(engine);
    sdk = new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('creates from a chat body, gets, lists, and reads versions', async () => {
    const created = await sdk.presets.createPresetsChatCompletions({
      slug: 'sdk-preset',
      chatRequest: {
        model: 'openai/gpt-4o',
        temperature: 0.7,
        messages: [
          { role: 'system', content: 'Be kind.' },
          { role: 'user', content: 'hi' },
        ],
      },
    });
    expect(created.data).toMatchObject({ slug: 'sdk-preset', status: 'active', statusUpdatedAt: null });
    expect(created.data.designatedVersion).toMatchObject({
      version: 1,
      systemPrompt: 'Be kind.',
      config: { model: 'openai/gpt-4o', temperature: 0.7 },
    });
    await sdk.presets.createPresetsChatCompletions({
      slug: 'sdk-preset',
      chatRequest: { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
    });

    const got = await sdk.presets.get({ slug: 'sdk-preset' });
    expect(got.data.designatedVersion).toMatchObject({ version: 2, systemPrompt: null });

    const listed = await sdk.presets.list({ limit: 10 });
    expect(listed.result).toMatchObject({
      totalCount: 1,
      data: [{ slug: 'sdk-preset', designatedVersionId: got.data.designatedVersionId }],
    });

    const versions = await sdk.presets.listVersions({ slug: 'sdk-preset' });
    expect(versions.result.data.map((v) => v?.version)).toEqual([1, 2]);
    const first = await sdk.presets.getVersion({ slug: 'sdk-preset', version: '1' });
    expect(first.data).toMatchObject({ version: 1, presetId: created.data.id });

    await expect(sdk.presets.get({ slug: 'missing' })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('parses presets made through the gateway’s own POST /presets', async () => {
    await call(gw, 'POST', '/presets', {
      key: gw.managementKey,
      body: { slug: 'native', description: 'd', config: { models: ['a/b', 'c/d'] } },
    });
    const got = await sdk.presets.get({ slug: 'native' });
    expect(got.data).toMatchObject({ name: 'native', description: 'd', designatedVersion: { config: { models: ['a/b', 'c/d'] } } });
  });
});
