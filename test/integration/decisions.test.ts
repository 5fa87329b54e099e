import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { readSimStats } from '../../src/sim/test-support.testing.js';
import { testEngines } from '../support/databases.js';
import { call, type RunningGateway, startGateway } from '../support/gateway.js';

const state = { message: 'I was charged twice on my invoice and I want a refund of the double payment.' };
const questions = {
  department: {
    type: 'choice',
    instructions: 'Which team should handle this?',
    criteria: { billing: 'Payments, refunds and invoice problems', support: 'Login and product questions' },
  },
  refund: {
    type: 'noul',
    instructions: 'Does the customer ask for a refund?',
    criteria: { true: 'asks for a refund of money', false: 'no' },
  },
  severity: { type: 'score', instructions: 'How severe is it?', criteria: ['Cosmetic question', 'Annoying', 'Charged twice, money lost'] },
};

/** A catalog on one simulator: a decision model, a chat model on OpenAI's API (logprobs) and one on Anthropic's (none). */
function decisionsCatalog(simUrl: string) {
  const yaml = `
providers:
  - { id: openai-a, kind: openai, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: 5000 }
  - { id: openai-b, kind: openai, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: 5000 }
  - { id: claude-a, kind: anthropic, base_url: "${simUrl}/v1", api_key: sim-key, timeout_ms: 5000 }
models:
  - id: sim/decide
    type: decisions
    endpoints: [{ provider: openai-a, upstream_model: sim-decide, pricing: { prompt: 0.000001, completion: 0.000002 } }]
  - id: sim/decide-down
    type: decisions
    endpoints:
      - { provider: openai-a, upstream_model: "sim-decide@status=503", pricing: { prompt: 0.000001 } }
      - { provider: openai-b, upstream_model: sim-decide, pricing: { prompt: 0.000001 } }
  - id: sim/tiny
    type: decisions
    context_length: 40
    endpoints: [{ provider: openai-a, upstream_model: sim-decide, pricing: { prompt: 0.000001 } }]
  - id: sim/chat
    endpoints: [{ provider: openai-a, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002, request: 0.0001 } }]
  - id: sim/claude
    endpoints: [{ provider: claude-a, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }]
  - id: sim/embed
    type: embeddings
    endpoints: [{ provider: openai-a, upstream_model: sim-embed, pricing: { prompt: 0.0000001 } }]
`;
  const config = parseGatewayConfig(yaml, 'decisions-test.yaml', { knownKinds: PROVIDER_KINDS }, {});
  return buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS });
}

const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

describe.each(testEngines)('decisions on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const alpha = () => ({ baseUrl: gw.baseUrl.replace(/\/api\/v1$/, '/api/alpha') });
  const decide = (body: Record<string, unknown>, key = gw.managementKey) =>
    call(alpha(), 'POST', '/decisions', { key, body: { state, questions, ...body } });
  const simCalls = async (path: string) => ((await readSimStats(sim.url)).requests[path] as number | undefined) ?? 0;

  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startGateway(engine, { catalog: decisionsCatalog(sim.url), chat: { retryBudget: { maxWaitMs: 0, totalWaitMs: 0 } } });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });
  beforeEach(async () => {
    await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  });

  it('asks a decision model natively, in one call, and answers every question in its shape', async () => {
    const res = await decide({ model: 'sim/decide' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^gen-dec-\d+-[0-9a-f]+$/), model: 'sim/decide', provider: 'openai-a' });
    const { department, refund, severity } = res.body.answers;
    expect(department).toMatchObject({ type: 'choice', choice: 'billing' });
    expect(sum(department.probabilities)).toBeCloseTo(1, 3);
    expect(department.confidence).toBe(Math.max(...(Object.values(department.probabilities) as number[])));
    expect(refund.type).toBe('noul');
    expect(refund.noul).toBeGreaterThan(0.5);
    expect(severity).toMatchObject({ type: 'score', legend: { 0: 'Cosmetic question', 1: 'Annoying', 2: 'Charged twice, money lost' } });
    expect(sum(severity.probabilities)).toBeCloseTo(1, 3);
    expect(severity.score).toBeGreaterThan(1);
    expect(await simCalls('/v1/decisions')).toBe(1);
    expect(await simCalls('/v1/chat/completions')).toBe(0);
    const sent = (await readSimStats(sim.url)).lastRequestBody as Record<string, unknown>;
    expect(sent).toMatchObject({ model: 'sim-decide', state, questions });
    const { input_tokens, output_tokens, cost } = res.body.usage;
    expect(output_tokens).toBe(3);
    expect(cost).toBeCloseTo(input_tokens * 0.000001 + output_tokens * 0.000002, 12);
  });

  it('asks a chat model each question as a one-token lettered choice, in parallel, reading the letters’ top_logprobs', async () => {
    const res = await decide({ model: 'sim/chat' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ model: 'sim/chat', provider: 'openai-a' });
    const { department, refund, severity } = res.body.answers;
    expect(department.choice).toBe('billing');
    expect(department.confidence).toBeGreaterThan(0.5);
    expect(sum(department.probabilities)).toBeCloseTo(1, 5);
    expect(refund.noul).toBeGreaterThan(0.5);
    expect(refund.noul).toBeLessThan(1);
    expect(sum(severity.probabilities)).toBeCloseTo(1, 5);
    expect(severity.confidence).toBe(Math.max(...(Object.values(severity.probabilities) as number[])));
    expect(await simCalls('/v1/chat/completions')).toBe(3);
    const sent = (await readSimStats(sim.url)).lastRequestBody as Record<string, unknown>;
    expect(sent).toMatchObject({ max_completion_tokens: 1, temperature: 0, logprobs: true, top_logprobs: 20 });
    // Three calls: the per-request price three times, with the tokens of all of them.
    const { input_tokens, output_tokens, cost } = res.body.usage;
    expect(output_tokens).toBe(3);
    expect(cost).toBeCloseTo(3 * 0.0001 + input_tokens * 0.000001 + output_tokens * 0.000002, 12);
  });

  it('on a chat model without logprobs, answers the letter it picked, its odds left out as unknown', async () => {
    const res = await decide({ model: 'sim/claude' });
    expect(res.status).toBe(200);
    const { department, refund, severity } = res.body.answers;
    expect(department).toEqual({ type: 'choice', choice: 'billing' });
    expect(refund).toEqual({ type: 'noul', noul: 1 });
    expect(severity).toEqual({
      type: 'score',
      score: 2,
      legend: { 0: 'Cosmetic question', 1: 'Annoying', 2: 'Charged twice, money lost' },
    });
    expect(await simCalls('/v1/messages')).toBe(3);
  });

  it('falls back from a failing decision endpoint to the next of the same model', async () => {
    const res = await decide({ model: 'sim/decide-down' });
    expect(res.status).toBe(200);
    expect(res.body.provider).toBe('openai-b');
    expect(res.body.answers.department.choice).toBe('billing');
  });

  it('records one ledger row with api_type decisions and charges the key its cost', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'decider', limit: 1 } });
    const res = await decide({ model: 'sim/chat' }, created.body.key);
    expect(res.status).toBe(200);
    const gen = await call(gw, 'GET', `/generation?id=${res.body.id}`, { key: created.body.key });
    expect(gen.status).toBe(200);
    expect(gen.body.data).toMatchObject({
      id: res.body.id,
      api_type: 'decisions',
      model: 'sim/chat',
      provider_name: 'openai-a',
      status: 'success',
      tokens_prompt: res.body.usage.input_tokens,
      tokens_completion: 3,
      routing: { calls: 3 },
    });
    expect(gen.body.data.total_cost).toBeCloseTo(res.body.usage.cost, 12);
    expect((await call(gw, 'GET', '/key', { key: created.body.key })).body.data.usage).toBeCloseTo(res.body.usage.cost, 12);
    const rows = await gw.store.db
      .selectFrom('generations')
      .select('id')
      .where('api_type', '=', 'decisions')
      .where('api_key_hash', '=', created.body.data.hash)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('reserves once for all questions: a limit one question fits but three do not is refused before any call (402)', async () => {
    const created = await call(gw, 'POST', '/keys', { key: gw.managementKey, body: { name: 'tight', limit: 0.00001 } });
    const one = await decide({ model: 'sim/chat', questions: { department: questions.department } }, created.body.key);
    expect(one.status).toBe(402);
    const all = await decide({ model: 'sim/chat' }, created.body.key);
    expect(all.status).toBe(402);
    expect(all.body.error.metadata.required_usd).toBeGreaterThan(2.5 * one.body.error.metadata.required_usd);
    expect(await simCalls('/v1/chat/completions')).toBe(0);
    const roomy = await call(gw, 'POST', '/keys', {
      key: gw.managementKey,
      body: { name: 'roomy', limit: 1.5 * one.body.error.metadata.required_usd },
    });
    expect((await decide({ model: 'sim/chat', questions: { department: questions.department } }, roomy.body.key)).status).toBe(200);
    expect((await decide({ model: 'sim/chat' }, roomy.body.key)).status).toBe(402);
  });

  it.each([
    [{ questions: { q1: { type: 'boolean', instructions: 'Is it?' } } }, 'questions.q1.type must be one of choice, noul, score'],
    [{ questions: {} }, 'questions must hold 1 to 100 questions, not 0'],
    [
      { questions: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`q${i}`, questions.refund])) },
      'questions must hold 1 to 100 questions, not 101',
    ],
    [
      { questions: { pick: { type: 'choice', instructions: 'Which?', criteria: { only: 'one' } } } },
      'questions.pick.criteria must map 2 to 26',
    ],
    [
      { questions: { level: { type: 'score', instructions: 'How much?', criteria: ['low', 3] } } },
      'questions.level.criteria[1] must be a string, object or array',
    ],
    [{ questions: { yes: { type: 'noul', instructions: '' } } }, 'questions.yes.instructions must be a non-empty string'],
    [
      { questions: { yes: { type: 'noul', instructions: 'Is it?', criteria: { maybe: 'x' } } } },
      'questions.yes.criteria.maybe is not a side',
    ],
    [{ model: 'sim/embed' }, 'Model sim/embed is an embeddings model'],
  ])('refuses bad input with a 400 naming the question and field (%#)', async (body, message) => {
    const res = await decide({ model: 'sim/decide', ...body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(400);
    expect(res.body.error.message).toContain(message);
    expect(await simCalls('/v1/decisions')).toBe(0);
  });

  it('answers 413 for a state past the model’s context, before any call', async () => {
    const res = await decide({ model: 'sim/tiny', state: 'word '.repeat(200) });
    expect(res.status).toBe(413);
    expect(res.body.error.message).toMatch(/^state is too long for sim\/tiny/);
    expect(res.body.error.metadata).toMatchObject({ context: 40 });
    expect(await simCalls('/v1/decisions')).toBe(0);
  });

  it('is not served under /api/v1, and needs a key', async () => {
    expect((await call(gw, 'POST', '/decisions', { key: gw.managementKey, body: { model: 'sim/decide', state, questions } })).status).toBe(
      404,
    );
    expect((await call(alpha(), 'POST', '/decisions', { body: { model: 'sim/decide', state, questions } })).status).toBe(401);
  });
});
