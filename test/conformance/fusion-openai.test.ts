import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * A fusion response and stream parsed by the `openai` client: the gateway's
 * extras (plugins in the body, usage.cost, server_tool_use_details) must not
 * break it, and the streamed answer must read as one message.
 */
describe.each(testEngines.slice(0, 1))('fusion through the openai client on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let openai: OpenAI;

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', { id: 'claude', kind: 'anthropic' }],
      [
        { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model@chunks=5' }] },
        { id: 'sim/claude', endpoints: [{ provider: 'claude', upstream: 'claude-sim' }] },
      ],
    );
    gw = await startGateway(engine, {
      catalog,
      plugins: { allowPrivateRanges: [], exa: { baseUrl: sim.url, apiKey: 'exa-test-key', timeoutMs: 5_000 } },
    });
    openai = new OpenAI({ baseURL: gw.baseUrl, apiKey: gw.managementKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  const messages = [{ role: 'user' as const, content: 'Please search: how far away is the Moon?' }];
  // The gateway's own request fields, as a client passes them through the openai client.
  const fusion = { plugins: [{ id: 'fusion', analysis_models: ['sim/fast', 'sim/claude'], model: 'sim/fast' }] } as Record<string, unknown>;

  it('parses a fusion completion', async () => {
    const completion = await openai.chat.completions.create({ model: 'service/fusion', messages, ...fusion });
    expect(completion.id).toMatch(/^gen-/);
    expect(completion.model).toBe('sim/fast');
    expect(completion.choices[0]?.message.content).toContain('how far away is the Moon?');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect((completion.usage as OpenAI.CompletionUsage & { cost: number }).cost).toBeGreaterThan(0);
  });

  it('parses a fusion stream', async () => {
    const stream = await openai.chat.completions.create({
      model: 'service/fusion',
      messages,
      stream: true,
      stream_options: { include_usage: true },
      ...fusion,
    });
    let text = '';
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toContain('how far away is the Moon?');
    expect(finish).toBe('stop');
    expect(usage?.total_tokens).toBeGreaterThan(0);
  });

  it('parses a streamed answer that used the service:fusion tool, as one message', async () => {
    const runner = openai.chat.completions.stream({
      model: 'sim/fast',
      messages,
      tools: [{ type: 'service:fusion', parameters: { analysis_models: ['sim/claude'] } }] as never,
    });
    const completion = await runner.finalChatCompletion();
    expect(completion.choices[0]?.message.tool_calls ?? []).toEqual([]);
    expect(completion.choices[0]?.message.content).toContain('The tool said');
  });
});
