import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * Anthropic's own client against gateway + simulator, unchanged but for its
 * base URL (`<gateway>/api`: the SDK adds /v1/messages) and key: every
 * Message and stream event must parse and accumulate with the SDK's own code,
 * from an Anthropic endpoint (untranslated) and an OpenAI one (translated),
 * and from models whose first endpoint fails.
 */
describe.each(testEngines)('messages through @anthropic-ai/sdk on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let client: Anthropic;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      [{ id: 'anth', kind: 'anthropic' }, { id: 'anth-two', kind: 'anthropic' }, 'alpha'],
      [
        { id: 'claude/sim', endpoints: [{ provider: 'anth', upstream: 'claude-sim@chunks=4' }] },
        { id: 'gpt/sim', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=4' }] },
        {
          id: 'claude/fallback',
          endpoints: [
            { provider: 'anth', upstream: 'claude-sim@status=529' },
            { provider: 'anth-two', upstream: 'claude-sim' },
          ],
        },
        {
          id: 'gpt/fallback',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'anth', upstream: 'claude-sim' },
          ],
        },
        {
          id: 'mixed/fallback-meta',
          endpoints: [
            { provider: 'anth', upstream: 'claude-sim@status=529' },
            { provider: 'alpha', upstream: 'sim-model' },
          ],
        },
        { id: 'claude/breaks', endpoints: [{ provider: 'anth', upstream: 'claude-sim@chunks=6,fail_after=2,fail_mode=error-event' }] },
      ],
    );
    gw = await startGateway(engine, { catalog });
    client = new Anthropic({ baseURL: gw.baseUrl.replace(/\/v1$/, ''), apiKey: gw.managementKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  const weather: Anthropic.Tool = {
    name: 'get_weather',
    description: 'The weather in a city',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  };
  const question: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather like in Paris?' }];

  describe.each(['claude/sim', 'gpt/sim', 'claude/fallback', 'gpt/fallback'])('%s', (model) => {
    it('messages.create with x-api-key', async () => {
      const message = await client.messages.create({ model, max_tokens: 200, system: 'Be brief.', messages: question });
      expect(message.type).toBe('message');
      expect(message.id).toMatch(/^gen-/);
      expect(message.model).toBe(model);
      expect(message.stop_reason).toBe('end_turn');
      const text = message.content.find((block) => block.type === 'text');
      expect(text?.type === 'text' && text.text.length).toBeGreaterThan(0);
      expect(message.usage.input_tokens).toBeGreaterThan(0);
      expect(message.usage.output_tokens).toBeGreaterThan(0);
    });

    it('messages.stream, accumulated by the SDK into the final message', async () => {
      const stream = client.messages.stream({ model, max_tokens: 200, messages: question });
      const types: string[] = [];
      let text = '';
      stream.on('streamEvent', (event) => types.push(event.type));
      stream.on('text', (delta) => (text += delta));
      const message = await stream.finalMessage();
      expect(types[0]).toBe('message_start');
      expect(types.at(-1)).toBe('message_stop');
      expect(text.length).toBeGreaterThan(0);
      expect(message.content[0]?.type === 'text' && message.content[0].text).toBe(text);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage.output_tokens).toBeGreaterThan(0);
    });

    it('a tool-use round trip', async () => {
      const first = await client.messages.create({
        model,
        max_tokens: 300,
        tools: [weather],
        tool_choice: { type: 'any' },
        messages: question,
      });
      expect(first.stop_reason).toBe('tool_use');
      const call = first.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
      expect(call?.name).toBe('get_weather');
      const second = await client.messages.create({
        model,
        max_tokens: 300,
        tools: [weather],
        messages: [
          ...question,
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: 'Sunny, 21°C' }] },
        ],
      });
      expect(second.stop_reason).toBe('end_turn');
      expect(second.content.some((block) => block.type === 'text')).toBe(true);
    });

    it('streams a tool call the SDK parses into its input', async () => {
      const message = await client.messages
        .stream({ model, max_tokens: 300, tools: [weather], tool_choice: { type: 'tool', name: 'get_weather' }, messages: question })
        .finalMessage();
      const call = message.content.find((block) => block.type === 'tool_use');
      expect(call?.type === 'tool_use' && call.input).toEqual(expect.any(Object));
      expect(message.stop_reason).toBe('tool_use');
    });
  });

  it('messages.countTokens', async () => {
    const counted = await client.messages.countTokens({ model: 'claude/sim', system: 'Be brief.', messages: question, tools: [weather] });
    expect(counted.input_tokens).toBeGreaterThan(0);
  });

  it('authenticates with a bearer token as well (authToken, as Claude Code with ANTHROPIC_AUTH_TOKEN)', async () => {
    const bearer = new Anthropic({ baseURL: gw.baseUrl.replace(/\/v1$/, ''), authToken: gw.managementKey, apiKey: null, maxRetries: 0 });
    const message = await bearer.messages.create({ model: 'claude/sim', max_tokens: 100, messages: question });
    expect(message.content.length).toBeGreaterThan(0);
  });

  it('streams thinking with its signature from an Anthropic endpoint', async () => {
    const message = await client.messages
      .stream({ model: 'claude/sim', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: question })
      .finalMessage();
    const thinking = message.content[0];
    expect(thinking?.type).toBe('thinking');
    expect(thinking?.type === 'thinking' && thinking.signature.length).toBeGreaterThan(0);
  });

  it("raises the SDK's own errors: AuthenticationError for a bad key, NotFoundError for an unknown model", async () => {
    const stranger = new Anthropic({ baseURL: gw.baseUrl.replace(/\/v1$/, ''), apiKey: 'sk-nobody', maxRetries: 0 });
    const refused = await stranger.messages
      .create({ model: 'claude/sim', max_tokens: 10, messages: question })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((refused as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    });
    const unknown = await client.messages
      .create({ model: 'nobody/nothing', max_tokens: 10, messages: question })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
  });

  describe('with X-Service-Metadata: enabled', () => {
    it.each([
      ['claude/sim', ['anth']],
      ['gpt/sim', ['alpha']],
      ['mixed/fallback-meta', ['anth', 'alpha']],
    ])('messages.stream of %s: the raw message_stop carries service_metadata, message_delta the cost', async (model, providers) => {
      const described = new Anthropic({
        baseURL: gw.baseUrl.replace(/\/v1$/, ''),
        apiKey: gw.managementKey,
        maxRetries: 0,
        defaultHeaders: { 'x-service-metadata': 'enabled' },
      });
      // The failing endpoint first (a gateway field beside Anthropic's): the plan's order is otherwise weighted at random.
      const params = { model, max_tokens: 200, messages: question, provider: { order: ['anth'] } };
      const stream = described.messages.stream(params);
      const events: Record<string, any>[] = [];
      stream.on('streamEvent', (event) => events.push(event));
      const message = await stream.finalMessage();
      expect(message.content[0]?.type).toBe('text');
      const stop = events.find((event) => event.type === 'message_stop');
      expect(stop?.service_metadata).toMatchObject({ requested: model, attempt: providers.length });
      expect(stop?.service_metadata.attempts.map((a: { provider: string }) => a.provider)).toEqual(providers);
      const delta = events.find((event) => event.type === 'message_delta');
      expect(delta?.usage.cost).toBeGreaterThan(0);
    });

    it('sends none without the header', async () => {
      const stream = client.messages.stream({ model: 'claude/sim', max_tokens: 200, messages: question });
      const events: Anthropic.RawMessageStreamEvent[] = [];
      stream.on('streamEvent', (event) => events.push(event));
      await stream.finalMessage();
      expect(events.at(-1)).toEqual({ type: 'message_stop' });
    });
  });

  it('raises a stream that fails mid-way as an APIError from its error event', async () => {
    const failure = await client.messages
      .stream({ model: 'claude/breaks', max_tokens: 200, messages: question })
      .finalMessage()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect(String((failure as Error).message)).toContain('api_error');
  });
});
