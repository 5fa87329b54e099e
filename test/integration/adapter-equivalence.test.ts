import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * One chat request, three upstream protocols: the client sees equivalent
 * chat-completions answers whichever adapter served it.
 */
const MODELS = ['sim/via-openai', 'sim/via-anthropic', 'sim/via-gemini'] as const;

// A 1×1 PNG.
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];
const weather: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
const picture: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You describe pictures.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Describe this picture' },
      { type: 'image_url', image_url: { url: PIXEL } },
    ],
  },
];

describe.each(testEngines)('adapter equivalence on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let client: OpenAI;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      [
        { id: 'oai', kind: 'openai' },
        { id: 'ant', kind: 'anthropic' },
        { id: 'gem', kind: 'gemini' },
      ],
      [
        { id: 'sim/via-openai', endpoints: [{ provider: 'oai', upstream: 'sim-model' }] },
        { id: 'sim/via-anthropic', endpoints: [{ provider: 'ant', upstream: 'sim-claude' }] },
        { id: 'sim/via-gemini', endpoints: [{ provider: 'gem', upstream: 'sim-gemini' }] },
      ],
    );
    gw = await startGateway(engine, { catalog });
    client = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it.each(MODELS)('%s answers text with usage and cost', async (model) => {
    const completion = await client.chat.completions.create({ model, messages: picture });
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant' } }],
    });
    expect(completion.choices[0]?.message.content).toEqual(expect.any(String));
    expect(completion.choices[0]?.message.content?.length).toBeGreaterThan(0);
    expect(completion.usage).toMatchObject({
      prompt_tokens: expect.any(Number),
      completion_tokens: expect.any(Number),
      total_tokens: expect.any(Number),
    });
    expect((completion.usage as unknown as { cost: number }).cost).toBeGreaterThan(0);
  });

  it.each(MODELS)('%s calls a tool with JSON arguments', async (model) => {
    const completion = await client.chat.completions.create({ model, messages: weather, tools });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls?.[0];
    expect(call).toMatchObject({ type: 'function', id: expect.any(String), function: { name: 'get_weather' } });
    expect(JSON.parse(call!.type === 'function' ? call!.function.arguments : 'null')).toEqual(expect.any(Object));
  });

  it.each(MODELS)('%s streams a tool call that assembles like the JSON one', async (model) => {
    const final = await client.chat.completions.stream({ model, messages: weather, tools }).finalChatCompletion();
    const call = final.choices[0]?.message.tool_calls?.[0];
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' && call.function.name).toBe('get_weather');
    expect(JSON.parse(call!.type === 'function' ? call!.function.arguments : 'null')).toEqual(expect.any(Object));
  });

  it.each(MODELS)('%s streams text with usage on the final chunk', async (model) => {
    const stream = await client.chat.completions.create({ model, messages: picture, stream: true });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model });
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it.each(MODELS)('%s answers the tool result with text', async (model) => {
    const first = await client.chat.completions.create({ model, messages: weather, tools });
    const message = first.choices[0]!.message;
    const call = message.tool_calls![0]!;
    const second = await client.chat.completions.create({
      model,
      tools,
      messages: [...weather, message, { role: 'tool', tool_call_id: call.id, content: '{"temperature": 21}' }],
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(second.choices[0]?.message.content?.length).toBeGreaterThan(0);
  });
});
