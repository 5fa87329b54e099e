import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/** What a model without structured outputs lists: JSON is asked of it with the forced tool. */
const WITHOUT_STRUCTURED_OUTPUTS = ['max_tokens', 'temperature', 'tools', 'tool_choice', 'response_format'];

const SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    population: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['city', 'population', 'tags'],
  additionalProperties: false,
};
/** The same, as Anthropic's structured outputs take it as it is (no numeric bound). */
const STRICT_SCHEMA = { ...SCHEMA, properties: { ...SCHEMA.properties, population: { type: 'integer' } } };
const JSON_SCHEMA_FORMAT = { type: 'json_schema', json_schema: { name: 'place', schema: SCHEMA, strict: true } };

/** The answer is JSON that the schema's required fields and types hold for. */
function expectPlace(text: string | null | undefined) {
  const place = JSON.parse(text ?? '');
  expect(Object.keys(place).sort()).toEqual(['city', 'population', 'tags']);
  expect(typeof place.city).toBe('string');
  expect(Number.isInteger(place.population) && place.population >= 0).toBe(true);
  expect(Array.isArray(place.tags) && place.tags.every((tag: unknown) => typeof tag === 'string')).toBe(true);
}

/**
 * JSON schema answers served by Anthropic endpoints (simulated), through
 * chat, Responses and Messages: structured outputs where the model takes
 * them, the forced JSON tool where it does not, streamed and not.
 */
describe.each(testEngines)('structured output on Anthropic endpoints on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      [{ id: 'anth', kind: 'anthropic' }, 'alpha'],
      [
        { id: 'claude/sim', endpoints: [{ provider: 'anth', upstream: 'claude-sim@chunks=4' }] },
        { id: 'claude/old', endpoints: [{ provider: 'anth', upstream: 'claude-3-sim@chunks=4', supported: WITHOUT_STRUCTURED_OUTPUTS }] },
        { id: 'gpt/sim', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=4' }] },
      ],
    );
    gw = await startGateway(engine, { catalog });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  const upstreamBody = async () => ((await (await fetch(`${sim.url}/__sim/stats`)).json()) as any).lastRequestBody;
  const question = [{ role: 'user', content: 'Describe Paris.' }];
  const chat = (body: Record<string, unknown>) =>
    call(gw, 'POST', '/chat/completions', { key: gw.managementKey, body: { messages: question, max_tokens: 300, ...body } });
  async function events(path: string, body: Record<string, unknown>, headers: Record<string, string>): Promise<any[]> {
    const response = await fetch(`${gw.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ ...body, stream: true }),
    });
    expect(response.status).toBe(200);
    const out: any[] = [];
    const parser = createParser({ onEvent: (event) => event.data !== '[DONE]' && out.push(JSON.parse(event.data)) });
    parser.feed(await response.text());
    return out;
  }
  const bearer = () => ({ authorization: `Bearer ${gw.managementKey}` });
  const anthropicHeaders = () => ({ 'x-api-key': gw.managementKey, 'anthropic-version': '2023-06-01' });

  describe('chat completions', () => {
    it('asks a model with structured outputs natively, its schema reduced to what Anthropic takes', async () => {
      const { status, body } = await chat({ model: 'claude/sim', response_format: JSON_SCHEMA_FORMAT });
      expect(status).toBe(200);
      expectPlace(body.choices[0].message.content);
      expect(body.choices[0].finish_reason).toBe('stop');
      const sent = await upstreamBody();
      expect(sent.output_config.format.type).toBe('json_schema');
      expect(sent.output_config.format.schema.properties.population).toEqual({ type: 'integer', description: '{minimum: 0}' });
      expect(sent.tools).toBeUndefined();
    });

    it('asks a model without them with the forced JSON tool, whose input is the content and finish_reason stop', async () => {
      const { status, body } = await chat({ model: 'claude/old', response_format: JSON_SCHEMA_FORMAT });
      expect(status).toBe(200);
      expect(body.choices[0].message.tool_calls).toBeUndefined();
      expectPlace(body.choices[0].message.content);
      expect(body.choices[0].finish_reason).toBe('stop');
      const sent = await upstreamBody();
      expect(sent.output_config).toBeUndefined();
      expect(sent.tool_choice).toEqual({ type: 'tool', name: 'json_output' });
      expect(sent.tools).toEqual([expect.objectContaining({ name: 'json_output', input_schema: SCHEMA })]);
    });

    it.each(['claude/sim', 'claude/old'])('streams the JSON of %s as content deltas', async (model) => {
      const chunks = await events(
        '/chat/completions',
        { model, messages: question, max_tokens: 300, response_format: JSON_SCHEMA_FORMAT },
        bearer(),
      );
      const deltas = chunks.flatMap((chunk) => chunk.choices?.[0]?.delta?.content ?? []);
      expect(deltas.length).toBeGreaterThan(1);
      expectPlace(deltas.join(''));
      expect(chunks.some((chunk) => chunk.choices?.[0]?.delta?.tool_calls)).toBe(false);
      expect(chunks.findLast((chunk) => chunk.choices?.[0]?.finish_reason)?.choices[0].finish_reason).toBe('stop');
    });

    it('json_object is a JSON object through the forced tool with an open schema, on every model', async () => {
      const { body } = await chat({ model: 'claude/sim', response_format: { type: 'json_object' } });
      expect(JSON.parse(body.choices[0].message.content)).toEqual(expect.any(Object));
      expect(body.choices[0].finish_reason).toBe('stop');
      expect((await upstreamBody()).tools).toEqual([expect.objectContaining({ name: 'json_output', input_schema: { type: 'object' } })]);
    });

    it('bills and records the answer as any other', async () => {
      const { body } = await chat({ model: 'claude/old', response_format: JSON_SCHEMA_FORMAT });
      const { body: generation } = await call(gw, 'GET', `/generation?id=${body.id}`, { key: gw.managementKey });
      expect(generation.data.model).toBe('claude/old');
      expect(generation.data.native_tokens_completion).toBeGreaterThan(0);
      expect(generation.data.total_cost).toBeGreaterThan(0);
    });
  });

  describe('responses', () => {
    it('text.format json_schema goes as structured outputs, the output text is the JSON', async () => {
      const { status, body } = await call(gw, 'POST', '/responses', {
        key: gw.managementKey,
        body: { model: 'claude/sim', input: 'Describe Paris.', text: { format: { type: 'json_schema', name: 'place', schema: SCHEMA } } },
      });
      expect(status).toBe(200);
      const text = body.output.find((item: any) => item.type === 'message').content[0].text;
      expectPlace(text);
      expect((await upstreamBody()).output_config.format.type).toBe('json_schema');
    });
  });

  describe('messages', () => {
    const messages = (body: Record<string, unknown>) =>
      call(gw, 'POST', '/messages', {
        headers: anthropicHeaders(),
        body: { max_tokens: 300, messages: question, ...body },
      });
    const outputConfig = { effort: 'high', format: { type: 'json_schema', schema: STRICT_SCHEMA } };

    it('sends output_config to an Anthropic endpoint as the client wrote it', async () => {
      const { status, body } = await messages({ model: 'claude/sim', output_config: outputConfig });
      expect(status).toBe(200);
      expectPlace(body.content[0].text);
      expect((await upstreamBody()).output_config).toEqual(outputConfig);
    });

    it("passes output_config's fields of later API versions on to Anthropic", async () => {
      const config = { ...outputConfig, task_budget: { type: 'tokens', total: 400000 } };
      const { status } = await messages({ model: 'claude/sim', output_config: config });
      expect(status).toBe(200);
      expect((await upstreamBody()).output_config).toEqual(config);
    });

    it('translates it for another protocol: format as response_format, effort as reasoning effort', async () => {
      const { status, body } = await messages({ model: 'gpt/sim', output_config: { ...outputConfig, effort: 'xhigh' } });
      expect(status).toBe(200);
      expectPlace(body.content[0].text);
      expect(body.stop_reason).toBe('end_turn');
      const sent = await upstreamBody();
      expect(sent.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema: STRICT_SCHEMA, strict: true } });
      expect(sent.reasoning_effort).toBe('xhigh');
    });

    it('an Anthropic model without structured outputs gets the translation, with the forced JSON tool', async () => {
      const { status, body } = await messages({ model: 'claude/old', output_config: outputConfig });
      expect(status).toBe(200);
      expect(body.content.map((block: any) => block.type)).toEqual(['text']);
      expectPlace(body.content[0].text);
      expect(body.stop_reason).toBe('end_turn');
      expect((await upstreamBody()).tool_choice).toEqual({ type: 'tool', name: 'json_output' });
    });

    it.each(['claude/sim', 'claude/old', 'gpt/sim'])('streams the JSON of %s as text deltas', async (model) => {
      const streamed = await events(
        '/messages',
        { model, max_tokens: 300, messages: question, output_config: outputConfig },
        anthropicHeaders(),
      );
      const deltas = streamed.filter((event) => event.delta?.type === 'text_delta').map((event) => event.delta.text);
      expect(deltas.length).toBeGreaterThan(1);
      expectPlace(deltas.join(''));
      expect(streamed.find((event) => event.type === 'message_delta').delta.stop_reason).toBe('end_turn');
    });

    it.each([
      [{ effort: 'extreme' }, 'output_config.effort'],
      [{ format: { type: 'json_object' } }, 'output_config.format'],
      [{ format: { type: 'json_schema' } }, 'output_config.format'],
    ])('refuses output_config %j in Anthropic’s error shape, naming the field', async (config, field) => {
      const { status, body } = await messages({ model: 'claude/sim', output_config: config });
      expect(status).toBe(400);
      expect(body.type).toBe('error');
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toContain(field);
    });

    it('count_tokens takes output_config', async () => {
      const { status, body } = await call(gw, 'POST', '/messages/count_tokens', {
        headers: anthropicHeaders(),
        body: { model: 'claude/sim', messages: question, output_config: outputConfig },
      });
      expect(status).toBe(200);
      expect(body.input_tokens).toBeGreaterThan(0);
    });
  });
});
