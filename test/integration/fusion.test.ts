import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats, readSseData } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';
import { simCatalog } from '../support/sim-gateway.js';

/**
 * Fusion (spec 2.2 rules 1-5) through the gateway against the simulator, on
 * both protocols of its use: the `service/fusion` model and the
 * `service:fusion` server tool. Panelists are simulated models of the three
 * protocols; asked to "search", a simulated model calls web_search, which
 * the gateway runs against the simulator's Exa API. Searches on sim/fast
 * cost WEB_SEARCH each.
 */
const WEB_SEARCH = 0.01;
const META = { 'x-service-metadata': 'enabled' };
const QUESTION = 'Please search: how far away is the Moon?';
const PANEL = ['sim/fast', 'sim/claude', 'sim/gemini'];

describe.each(testEngines)('fusion through the gateway on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  let key: string;

  const chat = (body: Record<string, unknown>) =>
    call(gw, 'POST', '/chat/completions', { key, body: { messages: [{ role: 'user', content: QUESTION }], ...body }, headers: META });
  const stream = async (body: Record<string, unknown>) => {
    const response = await fetch(`${gw.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...META },
      body: JSON.stringify({ messages: [{ role: 'user', content: QUESTION }], stream: true, ...body }),
    });
    expect(response.status).toBe(200);
    const data = await readSseData(response);
    expect(data.at(-1)).toBe('[DONE]');
    return data.slice(0, -1).map((d) => JSON.parse(d));
  };
  const innerRows = (parent: string) =>
    gw.store.db.selectFrom('generations').selectAll().where('parent_generation_id', '=', parent).orderBy('created_at').execute();
  const row = (id: string) => gw.store.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const entry = (metadata: any, name: string) => metadata.pipeline.find((e: { name: string }) => e.name === name);
  const keyUsage = async () => (await call(gw, 'GET', '/key', { key })).body.data.usage as number;
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

  beforeAll(async () => {
    sim = await startSimulator();
    const catalog = simCatalog(
      sim.url,
      ['alpha', { id: 'claude', kind: 'anthropic' }, { id: 'google', kind: 'gemini' }],
      [
        { id: 'sim/fast', endpoints: [{ provider: 'alpha', upstream: 'sim-model', pricing: { web_search: WEB_SEARCH } }] },
        { id: 'sim/claude', endpoints: [{ provider: 'claude', upstream: 'claude-sim' }] },
        { id: 'sim/gemini', endpoints: [{ provider: 'google', upstream: 'gemini-sim' }] },
        { id: 'sim/broken', endpoints: [{ provider: 'alpha', upstream: 'sim-model@status=500' }] },
        // Models of the general-budget preset, served by the simulator; its other models are not served here.
        { id: 'openai/gpt-5-mini', endpoints: [{ provider: 'alpha', upstream: 'sim-model' }] },
        { id: 'google/gemini-2.5-flash', endpoints: [{ provider: 'google', upstream: 'gemini-sim' }] },
      ],
    );
    gw = await startGateway(engine, {
      catalog,
      plugins: { allowPrivateRanges: [], exa: { baseUrl: sim.url, apiKey: 'exa-test-key', timeoutMs: 5_000 } },
    });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(async () => {
    // A fresh key per test: its usage is exactly that test's cost.
    key = (await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'fusion' } })).body.key;
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  describe('service/fusion', () => {
    it('runs the panel in parallel with web search, the analyst, then the synthesis; inner calls are linked rows whose cost is the request cost', async () => {
      const res = await chat({ model: 'service/fusion', plugins: [{ id: 'fusion', analysis_models: PANEL, model: 'sim/fast' }] });
      expect(res.status).toBe(200);
      expect(res.body.model).toBe('sim/fast');
      expect(res.body.service_metadata.requested).toBe('service/fusion');
      const fusion = entry(res.body.service_metadata, 'fusion');
      expect(fusion.data).toMatchObject({
        preset: null,
        analysis_models: PANEL,
        model: 'sim/fast',
        max_tool_calls: 4,
        panel: PANEL.map((model) => ({ model, ok: true })),
        analyst: { model: 'sim/fast' },
      });

      const inner = await innerRows(res.body.id);
      expect(inner.map((r) => r.model).sort()).toEqual([...PANEL, 'sim/fast'].sort());
      expect(inner.every((r) => r.status === 'success')).toBe(true);
      expect(new Set(inner.map((r) => r.id))).toEqual(
        new Set([...fusion.data.panel.map((p: any) => p.generation_id), fusion.data.analyst.generation_id]),
      );
      // Every panelist searched the web through the gateway (the simulator's Exa API); the analyst has the same tools.
      const serverTools = (r: { routing: string | null }) =>
        JSON.parse(r.routing!).pipeline.find((e: { name: string }) => e.name === 'server-tools');
      for (const r of inner.filter((r) => r.id !== fusion.data.analyst.generation_id)) {
        expect(serverTools(r).data).toMatchObject({ tools: ['web_fetch', 'web_search'], calls: [{ name: 'web_search', ok: true }] });
      }
      expect(serverTools(inner.find((r) => r.id === fusion.data.analyst.generation_id)!).data.tools).toEqual(['web_fetch', 'web_search']);
      expect((await readSimStats(sim.url)).requests['/search']).toBe(3);
      // The sim/fast panelist's search is billed at its web_search price, on its own row.
      const fastPanelist = fusion.data.panel.find((p: { model: string }) => p.model === 'sim/fast').generation_id;
      expect(inner.find((r) => r.id === fastPanelist)!.total_cost).toBeGreaterThan(WEB_SEARCH);

      const parent = await row(res.body.id);
      expect(parent.parent_generation_id).toBeNull();
      expect(res.body.usage.cost).toBeCloseTo(parent.total_cost + sum(inner.map((r) => r.total_cost)), 12);
      expect(fusion.data.inner_cost).toBeCloseTo(sum(inner.map((r) => r.total_cost)), 12);
      expect(await keyUsage()).toBeCloseTo(res.body.usage.cost, 12);
      const generation = await call(gw, 'GET', `/generation?id=${inner[0]!.id}`, { key });
      expect(generation.body.data.parent_generation_id).toBe(res.body.id);

      // The synthesis read the analyst's JSON before the conversation.
      const synthesis = (await readSimStats(sim.url)).lastRequestBody;
      expect(synthesis.model).toBe('sim-model');
      expect(synthesis.messages[0].content).toContain('An expert panel researched this conversation');
      expect(synthesis.messages[0].content).toContain('{"reply":');
      expect(synthesis.messages.at(-1)).toEqual({ role: 'user', content: QUESTION });
    });

    it('streams the synthesis, with the fusion entry and the whole cost on the final chunk', async () => {
      const chunks = await stream({
        model: 'service/fusion',
        plugins: [{ id: 'fusion', analysis_models: ['sim/claude', 'sim/gemini'], model: 'sim/fast' }],
      });
      expect(chunks.length).toBeGreaterThan(3);
      expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toContain('how far away is the Moon?');
      const last = chunks.at(-1);
      expect(entry(last.service_metadata, 'fusion').data).toMatchObject({
        panel: [
          { model: 'sim/claude', ok: true },
          { model: 'sim/gemini', ok: true },
        ],
      });
      const inner = await innerRows(last.id);
      expect(inner).toHaveLength(3);
      const parent = await row(last.id);
      expect(parent.streamed).toBe(1);
      expect(last.usage.cost).toBeCloseTo(parent.total_cost + sum(inner.map((r) => r.total_cost)), 12);
      expect(await keyUsage()).toBeCloseTo(last.usage.cost, 12);
    });

    it('expands a preset server-side to the models this gateway serves; explicit fields win', async () => {
      const budget = await chat({ model: 'service/fusion', plugins: [{ id: 'fusion', preset: 'general-budget', tools: [] }] });
      expect(budget.status).toBe(200);
      expect(entry(budget.body.service_metadata, 'fusion').data).toMatchObject({
        preset: 'general-budget',
        analysis_models: ['openai/gpt-5-mini', 'google/gemini-2.5-flash'],
        model: 'openai/gpt-5-mini',
      });
      expect(budget.body.model).toBe('openai/gpt-5-mini');

      const explicit = await chat({
        model: 'service/fusion',
        plugins: [{ id: 'fusion', preset: 'general-budget', model: 'sim/gemini', tools: [] }],
      });
      expect(entry(explicit.body.service_metadata, 'fusion').data).toMatchObject({
        analysis_models: ['openai/gpt-5-mini', 'google/gemini-2.5-flash'],
        model: 'sim/gemini',
      });
      expect(explicit.body.model).toBe('sim/gemini');
    });

    it('passes max_tool_calls and tools to the inner calls: no tools, no searches', async () => {
      const res = await chat({
        model: 'service/fusion',
        plugins: [{ id: 'fusion', analysis_models: ['sim/fast'], model: 'sim/fast', tools: [], max_tool_calls: 2 }],
      });
      expect(entry(res.body.service_metadata, 'fusion').data).toMatchObject({ max_tool_calls: 2 });
      expect((await readSimStats(sim.url)).requests['/search']).toBeUndefined();
      for (const r of await innerRows(res.body.id)) expect(JSON.parse(r.routing!).pipeline ?? []).toEqual([]);

      const ceiling = await chat({
        model: 'service/fusion',
        plugins: [{ id: 'fusion', analysis_models: ['sim/fast'], model: 'sim/fast', max_tool_calls: 1 }],
      });
      for (const r of await innerRows(ceiling.body.id)) {
        expect(JSON.parse(r.routing!).pipeline.find((e: { name: string }) => e.name === 'server-tools').data.rounds).toBeLessThanOrEqual(1);
      }
    });

    it('leaves a failed panelist out; all failing is a 502 recorded on the request row', async () => {
      const res = await chat({
        model: 'service/fusion',
        plugins: [{ id: 'fusion', analysis_models: ['sim/fast', 'sim/broken'], model: 'sim/fast', tools: [] }],
      });
      expect(res.status).toBe(200);
      expect(entry(res.body.service_metadata, 'fusion').data.panel).toEqual([
        expect.objectContaining({ model: 'sim/fast', ok: true }),
        { model: 'sim/broken', ok: false, error: expect.stringContaining('500') },
      ]);
      expect((await innerRows(res.body.id)).map((r) => [r.model, r.status]).sort()).toEqual([
        ['sim/broken', 'error'],
        ['sim/fast', 'success'],
        ['sim/fast', 'success'],
      ]);

      const failed = await chat({
        model: 'service/fusion',
        plugins: [{ id: 'fusion', analysis_models: ['sim/broken'], model: 'sim/fast', tools: [] }],
      });
      expect(failed.status).toBe(502);
      expect(failed.body.error.message).toMatch(/^Fusion failed: every analysis model failed \(sim\/broken: /);
      expect(failed.body.service_metadata.requested).toBe('service/fusion');
      expect(failed.body.error.metadata.fusion.panel).toEqual([{ model: 'sim/broken', ok: false, error: expect.stringContaining('500') }]);
      const rows = await gw.store.db
        .selectFrom('generations')
        .selectAll()
        .where('status', '=', 'error')
        .where('model', '=', 'sim/fast')
        .execute();
      expect(rows).toHaveLength(1);
      expect(await innerRows(rows[0]!.id)).toHaveLength(1);
    });

    it.each([
      [{ analysis_models: ['sim/fast', 'nope/x'] }, 'plugins fusion analysis_models[1]: model nope/x is not served by this gateway'],
      [{ analysis_models: ['sim/fast'], model: 'nope/y' }, 'plugins fusion model: model nope/y is not served by this gateway'],
      [{}, 'plugins fusion preset "general-high": none of its models'],
      [{ analysis_models: Array.from({ length: 9 }, () => 'sim/fast') }, 'plugins[0].analysis_models'],
      [{ max_tool_calls: 17 }, 'plugins[0].max_tool_calls'],
      [{ preset: 'general-ultra' }, 'plugins[0].preset'],
      [{ tools: [{ type: 'service:fusion' }] }, 'plugins[0].tools[0].type'],
      [{ enabled: false }, 'Model service/fusion is routed by the fusion plugin, which this request disables (enabled: false)'],
    ])('refuses %j with a 400 naming the field', async (fields, message) => {
      const res = await chat({ model: 'service/fusion', plugins: [{ id: 'fusion', ...fields }] });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
      expect(await innerRows('none')).toEqual([]);
    });
  });

  describe('the service:fusion server tool', () => {
    const fusionTool = { type: 'service:fusion', parameters: { analysis_models: ['sim/claude', 'sim/gemini'] } };

    it('runs when the model calls it: the analysis is the tool result, the outer model the analyst by default', async () => {
      const res = await chat({ model: 'sim/fast', tools: [fusionTool] });
      expect(res.status).toBe(200);
      expect(res.body.choices[0].message.content).toContain('The tool said');
      const tools = entry(res.body.service_metadata, 'server-tools');
      expect(tools.data).toMatchObject({
        tools: ['fusion'],
        calls: [{ name: 'fusion', ok: true, fusion: { model: 'sim/fast', panel: [{ ok: true }, { ok: true }] } }],
      });
      const inner = await innerRows(res.body.id);
      expect(inner.map((r) => r.model).sort()).toEqual(['sim/claude', 'sim/fast', 'sim/gemini']);
      const parent = await row(res.body.id);
      expect(res.body.usage.cost).toBeCloseTo(parent.total_cost + sum(inner.map((r) => r.total_cost)), 12);
      expect(tools.data.inner_cost).toBeCloseTo(sum(inner.map((r) => r.total_cost)), 12);
      expect(await keyUsage()).toBeCloseTo(res.body.usage.cost, 12);
    });

    it('runs on a stream: no tool call reaches the client, the answer streams, usage and cost cover every step', async () => {
      const chunks = await stream({ model: 'sim/fast', tools: [fusionTool] });
      expect(chunks.some((c) => c.choices?.some((choice: any) => choice.delta.tool_calls))).toBe(false);
      expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toContain('The tool said');
      const last = chunks.at(-1);
      expect(last.choices[0].finish_reason).toBe('stop');
      expect(last.usage.server_tool_use_details).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1, web_search_requests: 0 });
      const inner = await innerRows(last.id);
      expect(inner).toHaveLength(3);
      const parent = await row(last.id);
      expect(parent.tokens_prompt).toBe(last.usage.prompt_tokens);
      expect(last.usage.cost).toBeCloseTo(parent.total_cost + sum(inner.map((r) => r.total_cost)), 12);
      expect(await keyUsage()).toBeCloseTo(last.usage.cost, 12);
    });

    it('refuses an analysis model the gateway does not serve before any upstream call', async () => {
      const res = await chat({ model: 'sim/fast', tools: [{ type: 'service:fusion', parameters: { analysis_models: ['nope/x'] } }] });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('plugins fusion analysis_models[0]: model nope/x is not served by this gateway');
      expect((await readSimStats(sim.url)).requests['/v1/chat/completions']).toBeUndefined();
    });
  });

  describe('web search as a server tool, and its billing', () => {
    const tokensCost = (usage: { prompt_tokens: number; completion_tokens: number }) =>
      usage.prompt_tokens * 0.000001 + usage.completion_tokens * 0.000002;

    it('bills each search at the endpoint web_search price, JSON and streamed', async () => {
      const res = await chat({ model: 'sim/fast', tools: [{ type: 'service:web_search', parameters: { max_results: 2 } }] });
      expect(res.status).toBe(200);
      expect(res.body.choices[0].message.content).toContain('science.example.org');
      expect(res.body.usage.server_tool_use_details).toEqual({ tool_calls_requested: 1, tool_calls_executed: 1, web_search_requests: 1 });
      expect(res.body.usage.cost).toBeCloseTo(tokensCost(res.body.usage) + WEB_SEARCH, 12);
      expect((await row(res.body.id)).total_cost).toBeCloseTo(res.body.usage.cost, 12);

      const chunks = await stream({ model: 'sim/fast', tools: [{ type: 'service:web_search' }] });
      const last = chunks.at(-1);
      expect(last.usage.server_tool_use_details.web_search_requests).toBe(1);
      expect(last.usage.cost).toBeCloseTo(tokensCost(last.usage) + WEB_SEARCH, 12);
      expect(await keyUsage()).toBeCloseTo(res.body.usage.cost + last.usage.cost, 12);
    });

    it("bills the web plugin's search too", async () => {
      const res = await chat({ model: 'sim/fast', plugins: [{ id: 'web', engine: 'exa' }] });
      expect(res.body.usage.server_tool_use_details).toEqual({ tool_calls_requested: 0, tool_calls_executed: 0, web_search_requests: 1 });
      expect(res.body.usage.cost).toBeCloseTo(tokensCost(res.body.usage) + WEB_SEARCH, 12);
    });

    it('refuses parameters outside the reference shape with a 400 naming the field', async () => {
      const res = await chat({ model: 'sim/fast', tools: [{ type: 'service:web_search', parameters: { max_results: 0 } }] });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('tools[0].parameters.max_results');
      const unknown = await chat({ model: 'sim/fast', tools: [{ type: 'service:teleport' }] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.message).toContain('tools[0].type');
    });
  });

  describe('stop_server_tools_when', () => {
    it('ends the loop when a condition fires: the pending calls ran, then one last turn without tool calls', async () => {
      const res = await chat({
        model: 'sim/fast',
        tools: [{ type: 'service:web_search' }],
        stop_server_tools_when: [{ type: 'has_tool_call', tool_name: 'web_search' }],
      });
      expect(res.status).toBe(200);
      expect(entry(res.body.service_metadata, 'server-tools').data).toMatchObject({
        rounds: 1,
        stopped_by: 'has_tool_call web_search',
        calls: [{ name: 'web_search', ok: true }],
      });
      const last = (await readSimStats(sim.url)).lastRequestBody;
      expect(last.tool_choice).toBe('none');
      expect(res.body.choices[0].finish_reason).toBe('stop');

      const chunks = await stream({
        model: 'sim/fast',
        tools: [{ type: 'service:web_search' }],
        stop_server_tools_when: [{ type: 'max_tokens_used', max_tokens: 1 }],
      });
      expect(entry(chunks.at(-1).service_metadata, 'server-tools').data).toMatchObject({ rounds: 1, stopped_by: 'max_tokens_used 1' });
      expect((await readSimStats(sim.url)).lastRequestBody.tool_choice).toBe('none');
    });

    it('refuses a condition outside the reference shape', async () => {
      const res = await chat({ model: 'sim/fast', stop_server_tools_when: [{ type: 'step_count_is' }] });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('stop_server_tools_when[0].step_count');
    });
  });
});
