import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * The `openai` SDK's Responses client against gateway + simulator,
 * unchanged but for base URL and key: plain, streamed (the SDK's own event
 * accumulation), a function tool round trip and a JSON schema, each on an
 * OpenAI endpoint (native), an Anthropic one (translated), and a model whose
 * first endpoint fails.
 */
describe.each(testEngines)('the openai SDK on POST /responses on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let openai: OpenAI;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', 'beta', { id: 'claude', kind: 'anthropic' }],
      [
        { id: 'sim/native', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=5' }] },
        { id: 'sim/claude', endpoints: [{ provider: 'claude', upstream: 'claude-sim@chunks=5' }] },
        {
          id: 'sim/flaky',
          endpoints: [
            { provider: 'alpha', upstream: 'sim-model@status=503' },
            { provider: 'beta', upstream: 'sim-model@chunks=5' },
          ],
        },
        { id: 'sim/breaks', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=6,fail_after=4' }] },
      ],
    );
    gw = await startGateway(engine, { catalog });
    openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const tools: OpenAI.Responses.FunctionTool[] = [
    {
      type: 'function',
      name: 'get_weather',
      description: 'The weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      strict: true,
    },
  ];

  describe.each(['sim/native', 'sim/claude', 'sim/flaky'])('%s', (model) => {
    it('creates a response', async () => {
      const response = await openai.responses.create({ model, input: 'What is the weather like?', instructions: 'Be brief.' });
      expect(response.id).toMatch(/^gen-/);
      expect(response.status).toBe('completed');
      expect(response.model).toBe(model);
      expect(response.output_text).toContain('weather');
      expect(response.usage?.total_tokens).toBeGreaterThan(0);
    });

    it('streams a response with stream: true', async () => {
      const stream = await openai.responses.create({ model, input: 'What is the weather like?', stream: true });
      let text = '';
      let completed: OpenAI.Responses.Response | undefined;
      for await (const event of stream) {
        if (event.type === 'response.output_text.delta') text += event.delta;
        if (event.type === 'response.completed') completed = event.response;
      }
      expect(text).toContain('weather');
      expect(completed?.output_text ?? completed?.output).toBeTruthy();
      expect(completed?.usage?.output_tokens).toBeGreaterThan(0);
    });

    it("accumulates a stream with the SDK's responses.stream helper", async () => {
      const stream = openai.responses.stream({ model, input: 'What is the weather like?' });
      const final = await stream.finalResponse();
      expect(final.output_text).toContain('weather');
      expect(final.status).toBe('completed');
    });

    it('runs a function tool round trip', async () => {
      const first = await openai.responses.create({ model, input: 'What is the weather in Paris?', tools });
      const call = first.output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
      expect(call?.name).toBe('get_weather');
      expect(JSON.parse(call!.arguments)).toHaveProperty('city');
      const second = await openai.responses.create({
        model,
        tools,
        input: [
          { role: 'user', content: 'What is the weather in Paris?' },
          { type: 'function_call', call_id: call!.call_id, name: call!.name, arguments: call!.arguments },
          { type: 'function_call_output', call_id: call!.call_id, output: 'Sunny, 24 degrees' },
        ],
      });
      expect(second.status).toBe('completed');
      expect(second.output_text.length).toBeGreaterThan(0);
      expect(second.output.some((item) => item.type === 'function_call')).toBe(false);
    });

    it('streams a function call the SDK accumulates', async () => {
      const stream = openai.responses.stream({ model, input: 'What is the weather in Paris?', tools, tool_choice: 'required' });
      const final = await stream.finalResponse();
      const call = final.output.find((item) => item.type === 'function_call');
      expect(call).toMatchObject({ type: 'function_call', name: 'get_weather' });
    });
  });

  describe.each(['sim/native', 'sim/flaky'])('%s', (model) => {
    it('answers a JSON schema', async () => {
      const response = await openai.responses.create({
        model,
        input: 'Make up a person',
        text: {
          format: {
            type: 'json_schema',
            name: 'person',
            strict: true,
            schema: {
              type: 'object',
              properties: { name: { type: 'string' }, age: { type: 'integer' } },
              required: ['name', 'age'],
              additionalProperties: false,
            },
          },
        },
      });
      expect(JSON.parse(response.output_text)).toEqual({ name: expect.any(String), age: expect.any(Number) });
    });
  });

  it('raises typed errors for the envelope', async () => {
    await expect(openai.responses.create({ model: 'sim/nope', input: 'hi' })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(openai.responses.create({ model: 'sim/native', input: 'hi', previous_response_id: 'resp_1' })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    );
  });

  it('throws on a stream that breaks midway, as on an OpenAI stream that fails (its error event)', async () => {
    const stream = await openai.responses.create({ model: 'sim/breaks', input: 'tell me a story', stream: true });
    const types: string[] = [];
    const read = async () => {
      for await (const event of stream) types.push(event.type);
    };
    await expect(read()).rejects.toThrow(/mid-stream/);
    expect(types[0]).toBe('response.created');
  });
});
