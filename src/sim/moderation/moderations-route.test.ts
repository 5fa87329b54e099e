import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../server.js';

/** The official OpenAI client parses the simulator's moderation answers. */
describe('simulator POST /v1/moderations', () => {
  let sim: Simulator;
  let client: OpenAI;
  beforeAll(async () => {
    sim = await startSimulator();
    client = new OpenAI({ apiKey: 'sim-key', baseURL: `${sim.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => sim.close());

  it('flags inputs with trigger words, one result per input', async () => {
    const result = await client.moderations.create({ model: 'omni-moderation-latest', input: ['Hello there', 'I will kill the idiot'] });
    expect(result.model).toBe('omni-moderation-latest');
    expect(result.results.map((r) => r.flagged)).toEqual([false, true]);
    expect(result.results[1]?.categories).toMatchObject({ violence: true, harassment: true, hate: false });
    expect(result.results[1]?.category_scores.violence).toBeGreaterThan(0.5);
    expect(result.results[0]?.category_applied_input_types.violence).toEqual(['text']);
  });

  it('takes a single string and answers knobs and errors in OpenAI shape', async () => {
    expect(
      (await client.moderations.create({ model: 'omni-moderation-latest', input: 'methamphetamine' })).results[0]?.categories.illicit,
    ).toBe(true);
    await expect(client.moderations.create({ model: 'omni-moderation-latest@status=503', input: 'x' })).rejects.toMatchObject({
      status: 503,
    });
    await expect(client.moderations.create({ model: 'omni-moderation-latest', input: [] as string[] })).rejects.toMatchObject({
      status: 400,
    });
  });
});
