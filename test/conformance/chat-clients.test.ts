import { OpenRouter } from '@openrouter/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * The real clients against gateway + simulator: every response and chunk
 * must parse with the clients' own schemas.
 */
describe.each(testEngines)('chat through the real clients on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let openai: OpenAI;
  let sdk: OpenRouter;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta'],
      [
        { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=5' }] },
        {
          id: 'sim/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model' },
          ],
        },
        { id: 'sim/breaks', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=6,fail_after=3' }] },
      ],
    );
    gw = await startGateway(engine, { catalog });
    openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
    sdk = new OpenRouter({ apiKey: gw.managementKey, serverURL: gw.baseUrl, retryConfig: { strategy: 'none' } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const messages = [{ role: 'user' as const, content: 'What is the weather like?' }];
  const tools = [
    {
      type: 'function' as const,
      function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    },
  ];

  describe('openai', () => {
    it('creates a completion', async () => {
      const completion = await openai.chat.completions.create({ model: 'sim/fast', messages });
      expect(completion.id).toMatch(/^gen-/);
      expect(completion.model).toBe('sim/fast');
      expect(completion.choices[0]?.message.content).toContain('weather');
      expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    });

    it('streams, with usage on the final chunk', async () => {
      const stream = await openai.chat.completions.create({
        model: 'sim/flaky',
        messages,
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: OpenAI.CompletionUsage | null | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        usage = chunk.usage ?? usage;
      }
      expect(text).toContain('weather');
      expect(usage?.completion_tokens).toBeGreaterThan(0);
    });

    it('accumulates a streamed tool call', async () => {
      const runner = openai.chat.completions.stream({ model: 'sim/fast', messages, tools });
      const final = await runner.finalChatCompletion();
      const call = final.choices[0]?.message.tool_calls?.[0];
      expect(call?.type === 'function' && call.function.name).toBe('get_weather');
      expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    });

    it('lists models', async () => {
      const page = await openai.models.list();
      expect(page.data.map((m) => m.id)).toEqual(expect.arrayContaining(['sim/fast', 'sim/flaky']));
    });

    it('raises typed errors for the envelope', async () => {
      await expect(openai.chat.completions.create({ model: 'nobody/nothing', messages })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
      await expect(openai.chat.completions.create({ model: 'sim/fast', messages, temperature: 9 })).rejects.toBeInstanceOf(
        OpenAI.BadRequestError,
      );
    });

    it('surfaces a mid-stream failure as an error, not a silent end', async () => {
      const stream = await openai.chat.completions.create({ model: 'sim/breaks', messages, stream: true });
      await expect(
        (async () => {
          for await (const chunk of stream) void chunk;
        })(),
      ).rejects.toThrow(/mid-stream/);
    });
  });

  describe('@openrouter/sdk', () => {
    it('sends a chat request and reads the generation back', async () => {
      const result = await sdk.chat.send({ chatRequest: { model: 'sim/fast', messages, stream: false } });
      expect('choices' in result && result.choices[0]?.message.content).toContain('weather');
      const id = 'id' in result ? result.id : '';
      const generation = await sdk.generations.getGeneration({ id });
      expect(generation.data).toMatchObject({ id, model: 'sim/fast', providerName: 'alpha', streamed: false });
    });

    it('streams a chat request', async () => {
      const stream = await sdk.chat.send({ chatRequest: { model: 'sim/fast', messages, stream: true } });
      let text = '';
      let sawUsage = false;
      for await (const chunk of stream as AsyncIterable<{ choices: { delta: { content?: string | null } }[]; usage?: unknown }>) {
        text += chunk.choices[0]?.delta.content ?? '';
        sawUsage ||= chunk.usage != null;
      }
      expect(text).toContain('weather');
      expect(sawUsage).toBe(true);
    });

    it('lists models', async () => {
      const page = await sdk.models.list();
      expect(page.result.data.map((m) => m.id)).toEqual(expect.arrayContaining(['sim/fast']));
    });
  });
});
