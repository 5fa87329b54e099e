import { OpenRouter } from '@openrouter/sdk';
import * as errors from '@openrouter/sdk/models/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { parseGatewayConfig } from '../../src/config/load-gateway-config.js';
import { PROVIDER_KINDS } from '../../src/providers/registry.js';
import { type Simulator, startSimulator } from '../../src/sim/server.js';
import { testEngines } from '../support/databases.js';
import { type RunningGateway, startGateway } from '../support/gateway.js';

const questions = {
  team: {
    type: 'choice' as const,
    instructions: 'Which team should handle this?',
    criteria: { billing: 'Payments, refunds and invoices', support: 'Login problems' },
  },
  refund: {
    type: 'noul' as const,
    instructions: 'Does the customer ask for a refund?',
    criteria: { true: 'asks for a refund', false: 'asks for no money back' },
  },
  severity: { type: 'score' as const, instructions: { ask: 'How severe?' }, criteria: ['Cosmetic', 'Annoying', 'Refund of money lost'] },
};
const state = 'I was charged twice on my invoice; please refund the money.';

/**
 * `alpha.decisions.create` of the official @openrouter/sdk against the
 * running gateway: its answers, the fallback without logprobs included, and
 * its errors must parse with the SDK's own schemas. The SDK calls the
 * operation's own server (the host's root), so the call names it.
 */
describe.each(testEngines)('@openrouter/sdk decisions on $name', (engine) => {
  let sim: Simulator;
  let gw: RunningGateway;
  const decide = (model: string, body: Record<string, unknown> = {}) =>
    new OpenRouter({ apiKey: gw.managementKey, retryConfig: { strategy: 'none' } }).alpha.decisions.create(
      { decisionsRequest: { model, state, questions, sessionId: 'sdk-session', trace: { traceId: 't1' }, ...body } },
      { serverURL: gw.baseUrl.replace(/\/api\/v1$/, '') },
    );

  beforeAll(async () => {
    sim = await startSimulator();
    const yaml = `
providers:
  - { id: openai-a, kind: openai, base_url: "${sim.url}/v1", api_key: sim-key }
  - { id: claude-a, kind: anthropic, base_url: "${sim.url}/v1", api_key: sim-key }
models:
  - id: sim/decide
    type: decisions
    endpoints: [{ provider: openai-a, upstream_model: sim-decide, pricing: { prompt: 0.000001 } }]
  - id: sim/chat
    endpoints: [{ provider: openai-a, upstream_model: sim-model, pricing: { prompt: 0.000001, completion: 0.000002 } }]
  - id: sim/claude
    endpoints: [{ provider: claude-a, upstream_model: sim-model, pricing: { prompt: 0.000001 } }]
  - id: sim/tiny
    type: decisions
    context_length: 10
    endpoints: [{ provider: openai-a, upstream_model: sim-decide, pricing: { prompt: 0.000001 } }]
`;
    const config = parseGatewayConfig(yaml, 'sdk-decisions.yaml', { knownKinds: PROVIDER_KINDS }, {});
    gw = await startGateway(engine, { catalog: buildCatalog({ config, env: {}, knownKinds: PROVIDER_KINDS }) });
  });
  afterAll(async () => {
    await gw.close();
    await sim.close();
  });

  it.each(['sim/decide', 'sim/chat', 'sim/claude'])('parses the answer of %s', async (model) => {
    const result = await decide(model);
    expect(result).toMatchObject({
      id: expect.stringMatching(/^gen-dec-/),
      model,
      usage: { inputTokens: expect.any(Number), outputTokens: 3 },
    });
    expect(result.answers.team).toMatchObject({ type: 'choice', choice: 'billing' });
    expect(result.answers.refund).toMatchObject({ type: 'noul', noul: expect.any(Number) });
    expect(result.answers.severity).toMatchObject({ type: 'score', score: expect.any(Number), legend: { 0: 'Cosmetic' } });
  });

  it('parses the errors: 400 naming the question, 404, 413', async () => {
    const bad = decide('sim/decide', { questions: { q: { type: 'choice', instructions: 'x', criteria: { only: 'one' } } } });
    await expect(bad).rejects.toBeInstanceOf(errors.BadRequestResponseError);
    await expect(bad).rejects.toMatchObject({ message: expect.stringContaining('questions.q.criteria') });
    await expect(decide('sim/nope')).rejects.toBeInstanceOf(errors.NotFoundResponseError);
    await expect(decide('sim/tiny')).rejects.toBeInstanceOf(errors.PayloadTooLargeResponseError);
  });
});
