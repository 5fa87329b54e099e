import {
  Agent,
  type AgentInputItem,
  type Model,
  OpenAIChatCompletionsModel,
  OpenAIProvider,
  OpenAIResponsesModel,
  Runner,
  run,
  setTracingDisabled,
  tool,
  webSearchTool,
} from '@openai/agents';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

// The SDK would export its traces to OpenAI's platform: nothing leaves the machine in a test.
setTracingDisabled(true);

/**
 * The OpenAI Agents SDK (`@openai/agents` 0.14, the line on `openai` 6)
 * against gateway + simulator through an `openai` client that only knows the
 * gateway's base URL and key: real agents on the Responses model (plain, a
 * function tool the SDK runs and answers with a function_call_output,
 * streamed, a model whose first endpoint fails) and on the Chat Completions
 * model, each checked against the ledger row the gateway wrote; and a
 * Codex-style stateless turn (store false, the whole conversation in input,
 * an earlier reasoning item with its encrypted content).
 */
describe.each(testEngines)('the OpenAI Agents SDK through the gateway on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let client: OpenAI;
  const generation = (id: string) => gw.store.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const responsesModel = (model: string): Model => new OpenAIResponsesModel(client, model);
  const chatModel = (model: string): Model => new OpenAIChatCompletionsModel(client, model);

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta', { id: 'claude', kind: 'anthropic' }],
      [
        { id: 'sim/native', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=5' }] },
        { id: 'sim/claude', endpoints: [{ provider: 'claude', upstream: 'claude-sim@chunks=5' }] },
        { id: 'sim/breaks', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=6,fail_after=6' }] },
        { id: 'sim/claude-breaks', endpoints: [{ provider: 'claude', upstream: 'claude-sim@chunks=6,fail_after=6' }] },
        {
          id: 'sim/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model@chunks=5' },
          ],
        },
      ],
    );
    gw = await startGateway(engine, { catalog });
    client = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const getWeather = tool({
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => `Sunny in ${city}, 24 degrees`,
  });

  describe.each([
    ['Responses', 'sim/native', responsesModel],
    ['Responses', 'sim/claude', responsesModel],
    ['Chat Completions', 'sim/native', chatModel],
  ] as const)('on the %s model of %s', (_api, model, makeModel) => {
    it('answers a question, and the gateway records the generation with its cost', async () => {
      const agent = new Agent({ name: 'Assistant', instructions: 'Be brief.', model: makeModel(model) });
      const result = await run(agent, 'What is the capital of France?');
      expect(result.finalOutput).toContain('What is the capital of France?');
      const [raw] = result.rawResponses;
      expect(raw?.responseId).toMatch(/^gen-/);
      expect(raw?.usage.inputTokens).toBeGreaterThan(0);
      const row = await generation(raw!.responseId!);
      expect(row).toMatchObject({
        api_type: 'completions',
        status: 'success',
        streamed: 0,
        model: model,
        tokens_prompt: raw!.usage.inputTokens,
        tokens_completion: raw!.usage.outputTokens,
      });
      expect(row.total_cost).toBeGreaterThan(0);
      const shown = await call(gw, 'GET', `/generation?id=${raw!.responseId}`, { key: gw.managementKey });
      expect(shown.body.data).toMatchObject({ api_type: 'completions', total_cost: row.total_cost });
    });

    it('runs a function tool the model calls, and answers from its output', async () => {
      const agent = new Agent({ name: 'Weather', instructions: 'Answer with the tool.', model: makeModel(model), tools: [getWeather] });
      const result = await run(agent, 'What is the weather in Paris?');
      const calls = result.newItems.filter((item) => item.type === 'tool_call_item');
      const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item');
      expect(calls).toHaveLength(1);
      expect(calls[0]?.rawItem).toMatchObject({ type: 'function_call', name: 'get_weather' });
      expect(outputs[0]?.output).toMatch(/^Sunny in /);
      // The simulated model reports what the tool said, so the output reached it.
      expect(result.finalOutput).toContain('The tool said: Sunny in');
      expect(result.rawResponses).toHaveLength(2);
      const [first, second] = await Promise.all(result.rawResponses.map((raw) => generation(raw.responseId!)));
      expect(first).toMatchObject({ api_type: 'completions', status: 'success', finish_reason: 'tool_calls' });
      expect(second).toMatchObject({ api_type: 'completions', status: 'success', finish_reason: 'stop' });
    });

    it('streams a run: text deltas as they come, then the final output', async () => {
      const agent = new Agent({ name: 'Streamer', model: makeModel(model), tools: [getWeather] });
      const stream = await run(agent, 'What is the weather in Lyon?', { stream: true });
      let text = '';
      const kinds = new Set<string>();
      for await (const event of stream) {
        kinds.add(event.type);
        if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') text += event.data.delta;
      }
      await stream.completed;
      expect(stream.error).toBeNull();
      expect(kinds).toContain('run_item_stream_event');
      expect(stream.finalOutput).toContain('The tool said: Sunny in');
      expect(text).toContain(stream.finalOutput);
      const rows = await Promise.all(stream.rawResponses.map((raw) => generation(raw.responseId!)));
      expect(rows.map((row) => [row.streamed, row.finish_reason])).toEqual([
        [1, 'tool_calls'],
        [1, 'stop'],
      ]);
    });

    it('hands off to another agent, whose model answers', async () => {
      const spanish = new Agent({ name: 'Spanish', handoffDescription: 'Answers in Spanish', model: makeModel(model) });
      const triage = new Agent({ name: 'Triage', model: makeModel(model), handoffs: [spanish] });
      // The simulated model calls the tools the user names: here the handoff's.
      const result = await run(triage, 'Please transfer_to_Spanish now');
      expect(result.lastAgent?.name).toBe('Spanish');
      expect(result.newItems.map((item) => item.type)).toEqual(['handoff_call_item', 'handoff_output_item', 'message_output_item']);
      expect(result.finalOutput).toContain('This is a simulated reply.');
    });

    it("falls back to the model's next endpoint when the first fails", async () => {
      const agent = new Agent({ name: 'Resilient', model: makeModel('sim/flaky') });
      const result = await run(agent, 'hello there');
      expect(result.finalOutput).toContain('hello there');
      const row = await generation(result.rawResponses[0]!.responseId!);
      expect(row).toMatchObject({ api_type: 'completions', status: 'success', provider_name: 'beta', model: 'sim/flaky' });
    });
  });

  // On sim/claude the schema goes as Anthropic's structured outputs (see the Anthropic adapter).
  describe.each([
    ['Responses', 'sim/native', responsesModel],
    ['Chat Completions', 'sim/native', chatModel],
    ['Responses', 'sim/claude', responsesModel],
    ['Chat Completions', 'sim/claude', chatModel],
  ] as const)('on the %s model of %s', (_api, model, makeModel) => {
    it('answers a structured output the SDK parses with its zod schema', async () => {
      const Person = z.object({ name: z.string(), age: z.number().int() });
      const agent = new Agent({ name: 'Extractor', model: makeModel(model), outputType: Person });
      const result = await run(agent, 'Make up a person');
      expect(Person.parse(result.finalOutput)).toEqual({ name: expect.any(String), age: expect.any(Number) });
    });
  });

  it.each([
    { model: 'sim/native', stream: false },
    { model: 'sim/claude', stream: true },
  ])(
    'serves a Codex-style stateless turn on $model (streamed: $stream): store false, the whole conversation in input, earlier reasoning kept encrypted',
    async ({ model, stream }) => {
      const agent = new Agent({
        name: 'Coder',
        instructions: 'You are a coding agent.',
        model: responsesModel(model),
        tools: [getWeather],
        modelSettings: {
          store: false,
          parallelToolCalls: false,
          truncation: 'disabled',
          reasoning: { effort: 'medium', summary: 'auto' },
          text: { verbosity: 'low' },
          providerData: { include: ['reasoning.encrypted_content'], prompt_cache_key: 'session-1', metadata: { session: 'one' } },
        },
      });
      const history: AgentInputItem[] = [
        { role: 'user', content: 'What is the weather in Paris?' },
        {
          type: 'reasoning',
          id: 'rs_1',
          content: [{ type: 'input_text', text: 'Look it up.' }],
          providerData: { encryptedContent: 'opaque-reasoning' },
        },
        { type: 'function_call', id: 'fc_1', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
        { type: 'function_call_result', callId: 'call_1', name: 'get_weather', status: 'completed', output: 'Sunny, 24 degrees' },
      ];
      const result = stream
        ? await run(agent, history, { stream: true }).then(async (streamed) => {
            await streamed.completed;
            return streamed;
          })
        : await run(agent, history);
      expect(result.finalOutput).toContain('The tool said: Sunny, 24 degrees');
      const upstream = (await readSimStats(sim.url)).lastRequestBody;
      if (model === 'sim/native') {
        // The native endpoint got the client's body: the encrypted reasoning and the settings a stateless client relies on.
        expect(upstream).toMatchObject({
          store: false,
          include: ['reasoning.encrypted_content'],
          prompt_cache_key: 'session-1',
          parallel_tool_calls: false,
          input: [
            { role: 'user' },
            { type: 'reasoning', encrypted_content: 'opaque-reasoning', summary: [{ type: 'summary_text', text: 'Look it up.' }] },
            { type: 'function_call', call_id: 'call_1' },
            { type: 'function_call_output', call_id: 'call_1', output: 'Sunny, 24 degrees' },
          ],
        });
      } else {
        // Translated: the call and its output as Anthropic's tool_use and tool_result (reasoning of another model has no place there).
        expect(upstream.messages).toMatchObject([
          { role: 'user' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1' }] },
        ]);
      }
      const row = await generation(result.rawResponses[0]!.responseId!);
      expect(row).toMatchObject({ api_type: 'completions', status: 'success', streamed: stream ? 1 : 0, finish_reason: 'stop' });
    },
  );

  it.each(['sim/breaks', 'sim/claude-breaks'])(
    'ends a streamed run whose stream breaks with an error, and records the failure (%s)',
    async (model) => {
      const agent = new Agent({ name: 'Fragile', model: responsesModel(model) });
      const stream = await run(agent, 'tell me a story', { stream: true });
      let text = '';
      const consumed = (async () => {
        for await (const event of stream)
          if (event.type === 'raw_model_stream_event' && event.data.type === 'output_text_delta') text += event.data.delta;
      })();
      await expect(Promise.all([consumed, stream.completed])).rejects.toThrow(/mid-stream/);
      expect(text.length).toBeGreaterThan(0);
      const row = await gw.store.db
        .selectFrom('generations')
        .selectAll()
        .where('model', '=', model)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ api_type: 'completions', status: 'error', streamed: 1 });
    },
  );

  it.each(['sim/native', 'sim/claude'])('takes a tool output of text and image parts on %s', async (model) => {
    const snapshot = tool({
      name: 'get_weather',
      description: 'The weather in a city, with a picture',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => [
        { type: 'text' as const, text: `Rain in ${city}` },
        { type: 'image' as const, image: 'https://example.com/radar.png', detail: 'low' as const },
      ],
    });
    const agent = new Agent({ name: 'Radar', model: responsesModel(model), tools: [snapshot] });
    const result = await run(agent, 'What is the weather in Paris?');
    expect(result.finalOutput).toContain('The tool said: Rain in');
  });

  it("sends a thinking model's reasoning item back in the next turn of a tool loop, as the SDK keeps it", async () => {
    const agent = new Agent({
      name: 'Thinker',
      model: responsesModel('sim/claude'),
      tools: [getWeather],
      modelSettings: { reasoning: { effort: 'low', summary: 'auto' } },
    });
    const result = await run(agent, 'What is the weather in Paris?');
    expect(result.newItems.map((item) => item.type)).toEqual([
      'reasoning_item',
      'tool_call_item',
      'tool_call_output_item',
      'message_output_item',
    ]);
    expect(result.finalOutput).toContain('The tool said: Sunny in');
    const stream = await run(agent, 'What is the weather in Paris?', { stream: true });
    await stream.completed;
    expect(stream.error).toBeNull();
    expect(stream.newItems.map((item) => item.type)).toEqual(result.newItems.map((item) => item.type));
    // The SDK keeps a Response's reasoning_text parts beside the item, and sends them back as they came.
    expect(stream.newItems[0]?.rawItem).toMatchObject({
      type: 'reasoning',
      providerData: { content: [{ type: 'reasoning_text', text: expect.any(String) }] },
    });
  });

  it("accepts every model setting the SDK sends to the Responses API, as OpenAI's own fields", async () => {
    const agent = new Agent({
      name: 'Tuned',
      model: responsesModel('sim/native'),
      tools: [getWeather],
      modelSettings: {
        temperature: 0.2,
        topP: 0.9,
        maxTokens: 200,
        toolChoice: 'get_weather',
        parallelToolCalls: true,
        truncation: 'auto',
        store: true,
        promptCacheRetention: '24h',
        promptCacheOptions: { mode: 'implicit', ttl: '30m' },
        reasoning: { effort: 'low', summary: 'concise' },
        text: { verbosity: 'medium' },
      },
      resetToolChoice: true,
    });
    const result = await run(agent, 'Which city is warmest?');
    expect(result.finalOutput).toContain('The tool said: Sunny in');
    expect((await readSimStats(sim.url)).lastRequestBody).toMatchObject({
      prompt_cache_retention: '24h',
      prompt_cache_options: { mode: 'implicit', ttl: '30m' },
      truncation: 'auto',
    });
  });

  it('continues a conversation from the result history, as a stateless client must', async () => {
    const agent = new Agent({ name: 'Weather', model: responsesModel('sim/native'), tools: [getWeather] });
    const first = await run(agent, 'What is the weather in Paris?');
    const second = await run(agent, [...first.history, { role: 'user', content: 'And tell me about Rome' }]);
    expect(second.finalOutput).toContain('And tell me about Rome');
  });

  it("serves agents that name only a model, through a provider on the gateway's client, on either API", async () => {
    const upstreamCalls = async () => {
      const { requests } = await readSimStats(sim.url);
      return [requests['/v1/responses'] ?? 0, requests['/v1/chat/completions'] ?? 0];
    };
    const on = (useResponses: boolean) => new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client, useResponses }) });
    const agent = new Agent({ name: 'Plain', model: 'sim/native', tools: [getWeather] });
    const [responses, chat] = await upstreamCalls();
    const viaResponses = await on(true).run(agent, 'What is the weather in Oslo?');
    expect(viaResponses.finalOutput).toContain('The tool said: Sunny in');
    // The tool's call, then the answer: two model calls, on the upstream's Responses API.
    expect(await upstreamCalls()).toEqual([responses + 2, chat]);
    const viaChat = await on(false).run(agent, 'What is the weather in Oslo?');
    expect(viaChat.finalOutput).toContain('The tool said: Sunny in');
    expect(await upstreamCalls()).toEqual([responses + 2, chat + 2]);
  });

  it('refuses server-side state and hosted tools, naming the field: the gateway keeps no state and runs only function tools', async () => {
    const agent = new Agent({ name: 'Stateful', model: responsesModel('sim/native') });
    await expect(run(agent, 'hi', { previousResponseId: 'resp_1' })).rejects.toThrow(/previous_response_id is not supported/);
    await expect(run(agent, 'hi', { conversationId: 'conv_1' })).rejects.toThrow(/conversation is not supported/);
    const searcher = new Agent({ name: 'Searcher', model: responsesModel('sim/native'), tools: [webSearchTool()] });
    await expect(run(searcher, 'search the news')).rejects.toThrow(/^400 tools\[0\]/);
  });
});
