import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingPath, resolveFixturesDir } from '../fixtures.js';
import { type Simulator, startSimulator } from '../server.js';
import { readJson, readSimStats } from '../test-support.testing.js';
import { postMessages, readEvents, readNamedEvents } from './anthropic-sim-client.testing.js';

const fixturesDir = resolveFixturesDir();
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ fixturesDir });
});
afterAll(() => sim.close());

const hello = { model: 'claude-sim', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello there' }] };
const streamed = { ...hello, stream: true };
const weatherTool = {
  name: 'get_weather',
  description: 'Weather by city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } } },
};
const weather = { ...hello, messages: [{ role: 'user', content: 'What is the weather in Paris?' }], tools: [weatherTool] };
const thinking = { ...hello, max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } };
const placeSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['city', 'tags'],
  additionalProperties: false,
};
const structured = { ...hello, output_config: { effort: 'high', format: { type: 'json_schema', schema: placeSchema } } };
const usageShape = {
  input_tokens: expect.any(Number),
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  output_tokens: expect.any(Number),
  service_tier: 'standard',
};
const errorBody = (type: string, message: unknown = expect.any(String)) => ({
  type: 'error',
  error: { type, message },
  request_id: expect.stringMatching(/^req_/),
});

describe('POST /v1/messages: authentication and validation, in Anthropic’s order and shapes', () => {
  it('answers 401 authentication_error without x-api-key, with the request id in header and body', async () => {
    const response = await postMessages(sim.url, hello, { 'x-api-key': '' });
    expect(response.status).toBe(401);
    const body = await readJson(response);
    expect(body).toEqual(errorBody('authentication_error', 'x-api-key header is required'));
    expect(response.headers.get('request-id')).toBe(body.request_id);
  });

  it('answers 400 invalid_request_error without anthropic-version', async () => {
    const response = await postMessages(sim.url, hello, { 'anthropic-version': '' });
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual(errorBody('invalid_request_error', 'anthropic-version: header is required'));
  });

  it.each([
    ['a body that is not JSON', '{"model": "claude-sim",', 'The request body is not valid JSON.'],
    ['no max_tokens', { model: 'claude-sim', messages: hello.messages }, 'max_tokens: Field required'],
    ['no messages', { model: 'claude-sim', max_tokens: 10 }, 'messages: Field required'],
    ['an empty messages list', { model: 'claude-sim', max_tokens: 10, messages: [] }, 'messages: at least one message is required'],
    [
      'a system role in messages',
      { ...hello, messages: [{ role: 'system', content: 'x' }] },
      "messages.0.role: Input should be 'user' or 'assistant'",
    ],
    ['a temperature above 1', { ...hello, temperature: 1.5 }, 'temperature: Input should be a number between 0 and 1'],
    ['an OpenAI service tier', { ...hello, service_tier: 'priority' }, "service_tier: Input should be 'auto' or 'standard_only'"],
    [
      'a thinking budget below 1024',
      { ...thinking, thinking: { type: 'enabled', budget_tokens: 500 } },
      'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024',
    ],
    [
      'a thinking budget not below max_tokens',
      { ...thinking, max_tokens: 2048 },
      expect.stringMatching(/^`max_tokens` must be greater than `thinking.budget_tokens`/),
    ],
    [
      'a temperature while thinking',
      { ...thinking, temperature: 0.5 },
      expect.stringMatching(/^`temperature` may only be set to 1 when thinking is enabled/),
    ],
    [
      'forced tool use while thinking',
      { ...thinking, tools: [weatherTool], tool_choice: { type: 'any' } },
      'Thinking may not be enabled when tool_choice forces tool use.',
    ],
    [
      'a tool loop whose assistant turn does not start with thinking, while thinking',
      {
        ...thinking,
        tools: [weatherTool],
        messages: [
          ...hello.messages,
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'get_weather', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'Snow' }] },
        ],
      },
      expect.stringMatching(/^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\./),
    ],
    ['a tool without a name', { ...hello, tools: [{ input_schema: {} }] }, 'tools.0.name: Field required'],
    [
      'an unknown effort',
      { ...hello, output_config: { effort: 'extreme' } },
      "output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'",
    ],
    [
      'a format that is not json_schema',
      { ...hello, output_config: { format: { type: 'json_object' } } },
      "output_config.format.type: Input should be 'json_schema'",
    ],
    [
      'a format without a schema',
      { ...hello, output_config: { format: { type: 'json_schema' } } },
      'output_config.format.schema: Field required',
    ],
    [
      'a schema that is not an object',
      { ...hello, output_config: { format: { type: 'json_schema', schema: [] } } },
      'output_config.format.schema: Input should be a valid dictionary',
    ],
    [
      'a numeric bound in the schema',
      {
        ...hello,
        output_config: { format: { type: 'json_schema', schema: { ...placeSchema, properties: { n: { type: 'integer', minimum: 1 } } } } },
      },
      "output_config.format.schema.properties.n: the 'minimum' keyword is not supported",
    ],
    [
      'an open object in the schema',
      { ...hello, output_config: { format: { type: 'json_schema', schema: { ...placeSchema, additionalProperties: true } } } },
      'output_config.format.schema: additionalProperties must be false for object types',
    ],
    [
      'structured outputs asked of a Claude 3 model',
      { ...hello, model: 'claude-3-sim', output_config: { format: { type: 'json_schema', schema: placeSchema } } },
      'output_config.format: structured outputs are not supported by the model claude-3-sim',
    ],
  ])('answers 400 for %s', async (_case, body, message) => {
    const response = await postMessages(sim.url, body);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual(errorBody('invalid_request_error', message));
  });

  it('records what it received for /__sim/stats', async () => {
    await postMessages(sim.url, hello);
    const stats = await readSimStats(sim.url);
    expect(stats.lastRequestBody).toEqual(hello);
    expect(stats.lastRequestHeaders).toMatchObject({ 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' });
  });
});

describe('POST /v1/messages, non-streaming', () => {
  it('answers a Message in Anthropic’s shape', async () => {
    const response = await postMessages(sim.url, { ...hello, system: 'Be brief.' });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({
      model: 'claude-sim',
      id: expect.stringMatching(/^msg_/),
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'This is a simulated reply. You said: Hello there' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { ...usageShape, input_tokens: 5, output_tokens: 11 },
    });
  });

  it('calls the weather tool when tools are given and the user asks about the weather', async () => {
    const body = await readJson(await postMessages(sim.url, weather));
    expect(body.content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'get_weather', input: { city: 'sim' } }]);
    expect(body.stop_reason).toBe('tool_use');
  });

  it('answers in text once the user turn holds the tool result, reporting what it said, and follows tool_choice', async () => {
    const afterTool = {
      ...weather,
      messages: [
        ...weather.messages,
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' }] },
      ],
    };
    const answer = await readJson(await postMessages(sim.url, afterTool));
    expect(answer.stop_reason).toBe('end_turn');
    expect(answer.content[0].text).toContain('The tool said: Sunny');
    const forced = { ...hello, tools: [weatherTool], tool_choice: { type: 'tool', name: 'get_weather' } };
    expect((await readJson(await postMessages(sim.url, forced))).stop_reason).toBe('tool_use');
    const refused = { ...weather, tool_choice: { type: 'none' } };
    expect((await readJson(await postMessages(sim.url, refused))).stop_reason).toBe('end_turn');
  });

  it('stops at a stop sequence and names it', async () => {
    const body = await readJson(await postMessages(sim.url, { ...hello, stop_sequences: ['simulated'] }));
    expect(body).toMatchObject({
      content: [{ type: 'text', text: 'This is a ' }],
      stop_reason: 'stop_sequence',
      stop_sequence: 'simulated',
    });
  });

  it('stops at max_tokens', async () => {
    const body = await readJson(await postMessages(sim.url, { ...hello, max_tokens: 3 }));
    expect(body).toMatchObject({ content: [{ type: 'text', text: 'This is a' }], stop_reason: 'max_tokens', usage: { output_tokens: 3 } });
  });

  it('thinks first when thinking is enabled, counting the thinking in output_tokens', async () => {
    const body = await readJson(await postMessages(sim.url, thinking));
    expect(body.content).toEqual([
      { type: 'thinking', thinking: 'The user wants a reply. A short, direct answer will do.', signature: expect.any(String) },
      { type: 'text', text: 'This is a simulated reply. You said: Hello there' },
    ]);
    expect(body.usage.output_tokens).toBe(11 + 14);
  });
});

describe('structured outputs (output_config.format)', () => {
  it('answers JSON text valid against the schema', async () => {
    const body = await readJson(await postMessages(sim.url, structured));
    expect(body.stop_reason).toBe('end_turn');
    expect(JSON.parse(body.content[0].text)).toEqual({ city: 'sim', tags: ['sim'] });
  });

  it('streams the JSON as text deltas', async () => {
    const events = await readEvents(await postMessages(sim.url, { ...structured, model: 'claude-sim@chunks=4', stream: true }));
    const deltas = events.filter(({ data }) => data.delta?.type === 'text_delta').map(({ data }) => data.delta.text as string);
    expect(deltas.length).toBeGreaterThan(1);
    expect(JSON.parse(deltas.join(''))).toEqual({ city: 'sim', tags: ['sim'] });
  });

  it('takes a null format and effort', async () => {
    const response = await postMessages(sim.url, { ...hello, output_config: { effort: null, format: null } });
    expect(response.status).toBe(200);
  });
});

describe('POST /v1/messages, streaming', () => {
  it('sends the exact event sequence, each event named by an event: line matching its data type', async () => {
    const response = await postMessages(sim.url, streamed);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = await readEvents(response);
    expect(events.map(({ event }) => event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array<string>(11).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events.every(({ event, data }) => data.type === event)).toBe(true);
    expect(events[0]?.data).toEqual({
      type: 'message_start',
      message: {
        model: 'claude-sim',
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usageShape, input_tokens: 3, output_tokens: 1 },
      },
    });
    expect(events[3]?.data).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'This' } });
    expect(events.at(-2)?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 11 },
    });
  });

  it('frames events as Anthropic does on the wire, with nothing after message_stop', async () => {
    const raw = await (await postMessages(sim.url, { ...streamed, model: 'claude-sim@chunks=1' })).text();
    expect(raw).toMatch(/^event: message_start\ndata: \{"type":"message_start",/);
    expect(raw.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    expect(raw).not.toContain('[DONE]');
  });

  it('streams a tool call as an empty tool_use and input_json_delta pieces, the first one empty', async () => {
    const events = await readEvents(await postMessages(sim.url, { ...weather, stream: true }));
    expect(events[1]?.data.content_block).toEqual({
      type: 'tool_use',
      id: expect.stringMatching(/^toolu_/),
      name: 'get_weather',
      input: {},
    });
    const pieces = events
      .filter(({ data }) => data.delta?.type === 'input_json_delta')
      .map(({ data }) => data.delta.partial_json as string);
    expect(pieces[0]).toBe('');
    expect(pieces.length).toBeGreaterThan(2);
    expect(JSON.parse(pieces.join(''))).toEqual({ city: 'sim' });
    expect(events.at(-2)?.data.delta.stop_reason).toBe('tool_use');
  });

  it('streams thinking as block 0 (thinking deltas and a signature) before the text in block 1', async () => {
    const events = await readEvents(await postMessages(sim.url, { ...thinking, stream: true }));
    const blocks = events.filter(({ event }) => event === 'content_block_start').map(({ data }) => [data.index, data.content_block.type]);
    expect(blocks).toEqual([
      [0, 'thinking'],
      [1, 'text'],
    ]);
    const deltaTypes = new Set(events.filter(({ data }) => data.index === 0 && data.delta).map(({ data }) => data.delta.type));
    expect(deltaTypes).toEqual(new Set(['thinking_delta', 'signature_delta']));
  });
});

describe('fault knobs, answered in Anthropic’s protocol', () => {
  it.each([
    [529, 'overloaded_error', 'Overloaded'],
    [429, 'rate_limit_error', expect.stringContaining('rate limit')],
    [500, 'api_error', 'Internal server error'],
    [503, 'api_error', 'Internal server error'],
    [400, 'invalid_request_error', expect.any(String)],
    [401, 'authentication_error', 'invalid x-api-key'],
    [404, 'not_found_error', expect.any(String)],
    [409, 'invalid_request_error', expect.any(String)],
  ])('answers status=%i with %s', async (status, type, message) => {
    const response = await postMessages(sim.url, { ...streamed, model: `claude-sim@status=${status}` });
    expect(response.status).toBe(status);
    expect(await readJson(response)).toEqual(errorBody(type, message));
  });

  it('sends Retry-After with a 429 (header knobs)', async () => {
    const response = await postMessages(sim.url, hello, { 'x-sim-status': '429', 'x-sim-retry-after': '3' });
    expect([response.status, response.headers.get('retry-after')]).toEqual([429, '3']);
  });

  it('answers 400 invalid_request_error for an invalid knob', async () => {
    const response = await postMessages(sim.url, { ...hello, model: 'claude-sim@statuz=1' });
    expect(response.status).toBe(400);
    expect((await readJson(response)).error.message).toMatch(/^Unknown simulator knob 'statuz'/);
  });

  it('fails mid-stream with an `event: error` overloaded_error in error-event mode', async () => {
    const { events, failure } = await readNamedEvents(
      await postMessages(sim.url, { ...streamed, model: 'claude-sim@fail_after=4,fail_mode=error-event' }),
    );
    expect(failure).toBeUndefined();
    expect(events.map(({ event }) => event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'error']);
    expect(JSON.parse(events[4]!.data)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('drops the connection mid-stream by default', async () => {
    const { events, failure } = await readNamedEvents(await postMessages(sim.url, { ...streamed, model: 'claude-sim@fail_after=2' }));
    expect(events).toHaveLength(2);
    expect(failure).toBeInstanceOf(Error);
  });

  it('corrupts the second event’s data but keeps its name with malformed', async () => {
    const { events } = await readNamedEvents(await postMessages(sim.url, { ...streamed, model: 'claude-sim@malformed=1' }));
    expect(events[1]?.event).toBe('content_block_start');
    expect(() => JSON.parse(events[1]!.data)).toThrow();
    expect(events.at(-1)?.event).toBe('message_stop');
  });

  it('never answers with hang', async () => {
    await expect(postMessages(sim.url, hello, { 'x-sim-hang': '1' }, AbortSignal.timeout(100))).rejects.toThrow(/abort/i);
  });

  it('spaces events by chunk_delay', async () => {
    const start = performance.now();
    const events = await readEvents(await postMessages(sim.url, { ...streamed, model: 'claude-sim@chunks=2,chunk_delay=15' }));
    // message_start, block start, ping, 2 deltas, block stop, message_delta, message_stop: 7 gaps.
    expect(events).toHaveLength(8);
    expect(performance.now() - start).toBeGreaterThanOrEqual(7 * 15 - 3);
  });
});

describe('replay of recorded Anthropic traffic as `fixture:anthropic/<recording>`', () => {
  const recordedLines = (name: string) =>
    readFileSync(`${recordingPath(fixturesDir, `anthropic/${name}`)}.chunks.txt`, 'utf8')
      .split('\n')
      .filter((line) => line !== '');

  it.each([
    ['anthropic-text', 'plain text with ping and zero cache counters'],
    ['anthropic-tool-no-args', 'a tool call whose only input_json_delta is empty'],
    ['issue-10781.1', 'tool arguments in input_json_delta pieces'],
    ['anthropic-clear-thinking.1', 'thinking deltas, an empty one and a signature'],
    ['anthropic-code-execution-20260120-prompt-cache.1', 'server tool blocks and cumulative cache counts'],
  ])('re-frames %s (%s) with event: lines, byte for byte', async (name) => {
    const raw = await (await postMessages(sim.url, { ...streamed, model: `fixture:anthropic/${name}` })).text();
    const lines = recordedLines(name);
    expect(raw).toBe(lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`).join(''));
  });

  it.each(['anthropic-text', 'anthropic-tool-no-args', 'issue-10372-tool-use.1', 'anthropic-clear-thinking.1'])(
    'replays the Message %s as recorded',
    async (name) => {
      const response = await postMessages(sim.url, { ...hello, model: `fixture:anthropic/${name}` });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(readFileSync(`${recordingPath(fixturesDir, `anthropic/${name}`)}.json`, 'utf8'));
    },
  );

  it.each([
    ['anthropic/anthropic-issue-17366-error', false, 'not a Messages API recording'],
    ['openai/openai-text', false, 'not a Messages API recording'],
    ['anthropic/issue-10372-tool-use.1', true, 'no streaming recording'],
    ['anthropic/no-such-recording', true, 'no recording anthropic/no-such-recording'],
  ])('answers %s (stream: %s) with not_found_error', async (name, stream, reason) => {
    const response = await postMessages(sim.url, { ...hello, stream, model: `fixture:${name}` });
    expect(response.status).toBe(404);
    const body = await readJson(response);
    expect(body.error.type).toBe('not_found_error');
    expect(body.error.message).toContain(reason);
  });
});
