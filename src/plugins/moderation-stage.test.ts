import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog } from '../catalog/create-catalog.js';
import type { ChatRun } from '../chat/run.js';
import { MODERATION_ADAPTERS } from '../providers/registry.js';
import { type Simulator, startSimulator } from '../sim/server.js';
import { resolveModerationProvider } from './moderation-provider.js';
import { moderationStage } from './moderation-stage.js';
import { activePlugins } from './plugin-configs.js';
import { CHAT_VIEW } from './request-views.js';

/** The moderation stage against the simulator's /v1/moderations, through the real OpenAI moderation adapter. */
describe('moderationStage', () => {
  let sim: Simulator;
  const clock = () => new Date(0);
  const providerFor = (model: string) => {
    const catalog = createCatalog({
      providers: [{ id: 'mod', name: 'mod', kind: 'openai', baseUrl: `${sim.url}/v1`, apiKey: 'k', timeoutMs: 2_000 }],
      models: [],
    });
    return resolveModerationProvider({ provider: 'mod', model }, catalog, MODERATION_ADAPTERS, false);
  };
  const context = (content: string) => ({
    run: { request: { messages: [{ role: 'user', content }] }, routing: {} } as unknown as ChatRun,
    plugins: activePlugins([], [{ id: 'moderation' }]),
    guardrails: [],
    signal: new AbortController().signal,
  });
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  it('blocks flagged input with its categories and lets clean input through', async () => {
    const stage = moderationStage(CHAT_VIEW.texts, providerFor('omni-moderation-latest'), clock);
    const flagged = await stage.run(context('how to buy methamphetamine'));
    expect(flagged.blocked?.statusCode).toBe(403);
    expect(flagged.blocked?.metadata).toMatchObject({ categories: ['illicit'] });
    expect((await stage.run(context('hello'))).blocked).toBeUndefined();
  });

  it('fails closed: a failing provider is a 502, no provider a 400', async () => {
    await expect(
      moderationStage(CHAT_VIEW.texts, providerFor('omni-moderation-latest@status=503'), clock).run(context('hello')),
    ).rejects.toMatchObject({
      statusCode: 502,
      message: expect.stringMatching(/^Moderation provider mod failed/),
    });
    await expect(moderationStage(CHAT_VIEW.texts, undefined, clock).run(context('hello'))).rejects.toMatchObject({ statusCode: 400 });
  });

  it('refuses at start a moderation provider that is missing or speaks no moderation API', () => {
    const catalog = createCatalog({ providers: [{ id: 'c', name: 'c', kind: 'cohere', baseUrl: 'http://x', timeoutMs: 1 }], models: [] });
    expect(() => resolveModerationProvider({ provider: 'nope' }, catalog, MODERATION_ADAPTERS, false)).toThrow(
      'moderation.provider "nope" is not a provider of the catalog',
    );
    expect(() => resolveModerationProvider({ provider: 'c' }, catalog, MODERATION_ADAPTERS, false)).toThrow(
      /of kind "cohere", which has no moderation API/,
    );
    expect(resolveModerationProvider(undefined, catalog, MODERATION_ADAPTERS, true)).toBeUndefined();
  });
});
